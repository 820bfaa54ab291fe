// Package forge reads Forge (forgecode, github.com/antinomyhq/forge), the
// terminal coding agent: its SQLite store .forge.db in ~/.forge (or the
// legacy ~/forge, or $FORGE_CONFIG), one conversations row per conversation.
//
// Evidence, read from the agent's own source (github.com/antinomyhq/forge at
// 54cecac14984728f9a019974aa23c7617b103268:
// crates/forge_repo/src/database/schema.rs, the conversation record types in
// crates/forge_repo/src/conversation/conversation_record.rs,
// crates/forge_domain/src/event.rs, crates/forge_domain/src/tools/catalog.rs,
// crates/forge_config/src/reader.rs, crates/forge_domain/src/env.rs), with
// kenn-io/agentsview internal/parser/forge.go at 5386007 for comparison
// (agentsview reads a per-message timestamp that the record types do not
// write; here the messages carry the conversation's time, marked
// inherited):
//
//   - conversations: one system row per conversation (created_at and
//     updated_at, naive UTC; its title, the initiator, the token figures
//     summed from the messages' usage, the metrics column's own totals
//     (input_tokens, output_tokens, cached_input_tokens: "metrics tokens",
//     as agentsview 538600744 forge.go reads them), the files its metrics
//     name as changed (with their lines_added and lines_removed) and
//     accessed).
//   - context.messages, each a ContextMessageRecord ({message, usage} or the
//     bare message): a text message in the User role is a user row only
//     with raw_content, the event the person sent ({"Text": prompt} or
//     {"Command": {name, parameters}}, a slash command); without it the
//     message is the agent's own composition and a system row. content is
//     then the rendered template (the prompt inside the agent's tags), not
//     what was typed. The System role is the system prompt (a system row);
//     an Assistant message gives a thinking row from reasoning_details, an
//     assistant row from content and one tool_use row per tool_calls entry
//     (name, call_id, arguments). A tool message is a tool_result (is_error,
//     the text of its values; an "aI" value is a subagent's answer and
//     names the subagent's conversation, which becomes that conversation's
//     parent); an image message a system row naming its type and size,
//     never its data.
//
// Times: the record types keep no time per message; every message row
// carries the conversation's created_at, time_basis inherited, in message
// order.
//
// Fixture: built from the record types above (testdata/*.sql), no real
// store: the npm packages (antinomyhq/npm-forgecode) fetch a binary from
// GitHub releases, which cannot be reached here.
package forge

// Package shelley reads Shelley (boldsoftware/shelley, exe.dev's coding
// agent), which keeps every conversation in one SQLite database,
// ~/.config/shelley/shelley.db as exe.dev runs it (the --db flag names it;
// its default is shelley.db in the working directory, which the home walk
// does not find).
//
// Evidence: source at boldsoftware/shelley
// a38c350249816325ff2ed9c852d2cc102b56dbc9 (db/schema 001-037, db/db.go
// MessageType, llm/llm.go Content and the ContentType iota that starts at
// 2 because it shares its const block with MessageRole, claudetool for the
// tool names, claudetool/subagent.go) and kenn-io/agentsview
// internal/parser/shelley.go at 538600744d1b87614d3746d36a0966c1f2ac1cad.
// Shelley is a Go server not on npm; the fixture testdata/typical.sql is
// built from the schema.
//
// shelley/db reads conversations (one system row each: slug, parent,
// user_initiated false for a subagent's, model, archived, tags, context
// generation, an unsent draft, queued messages, updated_at) and messages in
// rowid order (RecordID message_id, "#<n>" per further row): llm_data is
// an llm.Message {Role, Content [{Type, Text, Thinking, ToolName,
// ToolInput, ToolUseID, ToolError, ToolResult, MediaType, Title, URL}]};
// a user message is a user row (with "typed by <user_email>" when the
// multi-user column names one), except in a subagent conversation
// (parent_conversation_id, or user_initiated false), where it is the
// parent's task and a system row; agent messages give thinking (redacted
// thinking marked), assistant and tool_use rows; tool messages give
// tool_result rows with is_error from ToolError; error, gitinfo,
// modelchange, warning, slug and system messages give system rows
// (user_data's text when llm_data has none). What happened stays: a
// message of a generation before the conversation's current_generation
// (compaction starts a new one) is kept and followed by a row saying so,
// as is one excluded_from_context and one forked_from_message_id names.
// An unknown content type is counted; a message whose conversation row is
// gone is an orphan_record and kept. Times: created_at (SQLite
// CURRENT_TIMESTAMP, UTC).
//
// A message's usage_data (llm.Usage: input_tokens,
// cache_creation_input_tokens, cache_read_input_tokens, output_tokens,
// cost_usd; the keys agentsview 538600744 shelley.go reads) is a system
// row "token usage: input N, cache creation N, cache read N, output N,
// cost $X" after the message's rows (and after its marks, so their record
// ids stay), naming only what is there; one that is not a JSON object says
// so (a problem row).
//
// Not read: the models table (it holds API keys), settings,
// notification_channels, cache_sessions, display_data (the UI's copy of tool output), the messages_fts index.
// Deleted records are not carved from freed pages yet.
package shelley

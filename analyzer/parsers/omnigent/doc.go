// Package omnigent parses omnigent's chat.db, the one store of the
// meta-harness (omnigent-ai/omnigent) that drives Claude Code, Codex and
// other agents.
//
// Validated against: omnigent-ai/omnigent source at 79ee2e9 (2026-08-22;
// omnigent/db/db_models.py, enum_codecs.py, compression.py,
// entities/conversation.py, chat.py _omnigent_persistent_dir, cli.py
// _STATE_DIR and the legacy ~/.omnigents and ~/.omniagents) and the reader
// of kenn-io/agentsview at 5386007 (internal/parser/omnigent.go and its
// testdata/omnigent item payloads). Dicklesworthstone/
// coding_agent_session_search at 2a1fc6f has no omnigent connector. The
// fixtures are synthetic, built from the models: omnigent is a PyPI
// package, and PyPI is not reachable here.
//
// Files:
//
//   - omnigent/chat-db: {OMNIGENT_DATA_DIR|~/.omnigent}/chat.db on every
//     OS. omnigent_conversation_metadata (Optional: builds before
//     migration aa1b2c3d4e5f keep its columns on the conversations row)
//     gives each conversation's kind (CONVERSATION_KIND 1 default, 2
//     sub_agent), sub-agent name and task, workspace (the project),
//     branch and native session id; conversations one system row each
//     at created_at (epoch seconds): "omnigent conversation <id>; title
//     ...; sub-agent <name> (task ...); parent <id>; workspace ...;
//     branch ...; native session ...; session overrides ...; archived;
//     updated ...", session = the id, a sub-agent's ParentSessionID its
//     parent_conversation_id. Ids are Uuid16 (16 raw bytes, written as
//     omnigent presents them: bare lowercase hex) or, in earlier builds,
//     text. conversation_items, one row each at its created_at, RecordID
//     the item id, type as ITEM_TYPE code or name: message (role user:
//     the typed prompt, the input_text blocks; is_meta: "injected
//     context (is_meta: replayed to the agent, not typed)", never a user
//     row; assistant: the reply with its agent as model; other blocks
//     named, never their bytes; interrupted noted), function_call (name,
//     call_id, full arguments), function_call_output (by call_id, with
//     the call's name), reasoning (summary and content text; encrypted
//     content counted, not readable), error (is_error), compaction (the
//     summary; the items before last_item_id stay as rows), native_tool
//     (a provider-side tool item as a tool call), resource_event,
//     routing_decision, slash_command (and its output) and
//     terminal_command (input, stdout, stderr) as system rows. A status
//     other than completed is a row of its own; an unknown type is a
//     skipped_record problem, an item of a conversation with no row an
//     orphan_record problem (kept), an empty one a counted skip; a
//     metadata row whose conversations row is gone is an orphan_record
//     problem and its conversation and usage rows from the metadata (v3).
//     session_usage (CompressedText, db/compression.py: NUL, codec 0 raw
//     or 1 zstd, payload; unframed legacy text) is "session usage (as of
//     the conversation's last update): <JSON>" at updated_at (inherited),
//     tokens and cost by model; a value that does not decode is a
//     problem. session_state (the same CompressedText; a TEXT column on
//     conversations in builds before the metadata split, migration
//     f2a3b4c5d6e7) is the JSON key/value store the policy (guardrails)
//     engine keeps across a conversation's turns (entities/conversation.py;
//     written by stores/conversation_store set_session_state; keys such
//     as risk_score, gdrive_read_confidential, gdrive_created_file_ids,
//     _task_switch_history, _policy_cost_ask_approved_usd): "policy
//     session state (as of the conversation's last update): <JSON>" at
//     updated_at (inherited), RecordID "<id>#state"; an empty object (no
//     state written yet) gives no row, a value that does not decode is a
//     problem (v4). Never read: users, account_tokens, device_grants,
//     policies, hosts and the rest.
package omnigent

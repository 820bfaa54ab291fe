// Package piebald parses the app.db of Piebald (piebald.ai), a desktop
// agent application.
//
// Validated against: no public source and no package (a closed-source
// desktop app; npm piebald is 404): the schema kenn-io/agentsview at
// 5386007 reads (internal/parser/piebald.go: the tables and columns it
// selects; piebald_test.go: their declarations; types.go: the data
// directory .local/share/piebald, Library/Application Support/piebald,
// AppData/Roaming/piebald and PIEBALD_DIR), and the tool_state values
// (pending, executing, denied, completed) and the RunTerminalCommand tool
// a third-party hook reader of app.db names; Piebald's own usage
// tracker, Piebald-AI/splitrail (src/analyzers/piebald.rs at 56e4be4:
// the data directory is dirs::data_dir()/piebald, so %APPDATA%\piebald on
// Windows; messages.config_id and the override_gen_cfg_data_openai_*
// tables) and its schema test at caa74804 (src/analyzers/
// piebald_schema_tests.rs) for the typed-parts schema.
// Dicklesworthstone/coding_agent_session_search at 2a1fc6f has no
// Piebald connector. The fixtures are synthetic, built from those
// schemas (typical.sql the older, typed.sql the typed-parts one).
//
// Files:
//
//   - piebald/app-db: app.db. chats, one system row each at created_at
//     (session = the chat id): "piebald chat <id>; title ...; sub-agent
//     chat of chat <parent>; project <name> <directory>; directory ...;
//     worktree ...; branch ...; messages <n>; updated ...", and a chat
//     the app deleted (is_deleted) is kept with "deleted in the app
//     (is_deleted), kept in the store"; a sub-agent chat's parent is the
//     chat whose tool call names it (message_part_tool_call.
//     sub_agent_chat_id), its ParentSessionID. messages in id order at
//     created_at, each with its message_parts in part_index order: a text
//     part is its message_content_nodes' text (message_node_text) joined
//     in node_index order, a user row for role user (what the person
//     typed), an assistant row, or thinking when message_part_text.
//     is_thinking; a tool_call part is the call (tool_name,
//     provider_tool_use_id, full tool_input), its tool_result (is_error
//     false) or tool_error (is_error true), "permission decision: denied"
//     for tool_state denied and "left <state>" for a call never finished.
//     RecordID "msg-<id>#part-<id>". Then the message's token counts
//     ("usage: ..."), its error (is_error), a status other than
//     completed, and a message on a branch not shown (enabled 0: a
//     prompt edited or a reply regenerated away; the branch is kept in
//     the session, marked, with the message it follows). A part or node
//     of a type not known is a skipped_record problem, a record whose
//     parent row is gone an orphan_record problem and kept as rows marked
//     orphan, under no chat: the parts of a message whose messages row
//     is gone (v2), a content node's text whose part is gone (v2), a
//     message_part_text whose message_parts row is gone (its content
//     nodes' text one system row "text of part <id> (its message_parts
//     row is gone): ...", never a user row: its role went with it, v3),
//     a tool call whose part is gone (the call with its input, result
//     and decision rows, "<tool> (its message part <id> is gone)", v3),
//     a message_generations or tool_execution_context row whose message
//     or part is gone (v3); an empty message a counted skip.
//
//     The typed-parts schema (v3; splitrail caa74804's fixture, no real
//     store seen): messages lose model and the token columns to
//     message_generations (message_id, model, config_id, input_tokens,
//     output_tokens, reasoning_tokens, cache_read_tokens,
//     cache_write_tokens), read into the message's model and usage row
//     (config_id added; the chat's model is never lent); messages gain
//     message_kind: a message of any kind but normal (context_container:
//     the rules and context the app adds to a turn) is never a user row,
//     its text "user message of kind <kind> (not typed by the person):
//     ..."; message_parts gain part_subtype, with part types context
//     ("context part (<subtype>)", its text when it has content nodes,
//     else said to be in no table read) and tool, whose call is a
//     tool_execution_context row: no source names its columns beyond
//     message_part_id, so the call row is "tool part (<subtype>)" and
//     every other column the row has is written as key=value (tool_name,
//     provider_tool_use_id and tool_input or input taken as the call's
//     when present); a tool part with no such row says so. While a store
//     is part way through the migration (the new tables there, the
//     legacy message_part_tool_call still holding the calls) the legacy
//     row is read and the new one is not written again.
//     message_part_tool_call, message_generations and
//     tool_execution_context are each Optional (one schema or the other
//     lacks them).
package piebald

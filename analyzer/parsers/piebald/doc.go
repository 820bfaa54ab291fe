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
// a third-party hook reader of app.db names. Dicklesworthstone/
// coding_agent_session_search at 2a1fc6f has no Piebald connector. The
// fixture is synthetic, built from that schema.
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
//     parent row is gone an orphan_record problem (the parts of a message
//     whose messages row is gone kept as rows under no chat, a content
//     node's text whose part is gone a row of its own, v2), an
//     empty message a counted skip.
package piebald

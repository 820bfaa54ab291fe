// Package crush reads the files of Crush (Charm's terminal coding agent).
//
// Evidence: the format was learned from charmbracelet/crush source at
// 37f36e93824e5c4f892e4a817f7f628e2682fe14 (internal/db/migrations/*.sql,
// internal/db/sql/*.sql, internal/message/content.go and message.go,
// internal/session/session.go, internal/agent/agent.go and
// coordinator.go, internal/agent/tools/tools.go, internal/projects,
// internal/config/config.go, internal/shellconfig/permissions.go,
// internal/hooks/hooks.go HookMetadata and internal/agent/hooked_tool.go,
// which store the PreToolUse hooks' outcome in a tool result's metadata),
// and the branch commits that add the later session columns: 403ac188b
// (sessions.channel, the MCP channel a turn came from) with 146139d70 (a
// channel message is <channel source sender sender_name time>body</channel>),
// e367360a7 (sessions.revert_message_id: /undo hides the messages from that
// user message on and deletes them at the next prompt) and 26bac9d38
// (sessions.archived_at). The fixtures are synthetic .sql files built on that schema; no real Crush
// run was available when this was written (the real-agent test skips when
// fixtures/roots/real-agents-2 has no crush.db).
//
// # crush/db (targets "home-db" and "project", crush.db)
//
// The per-project SQLite store <project>/.crush/crush.db (ProjectPath is
// the folder holding .crush). Times are integers written with
// strftime('%s','now'), so seconds; values too large for seconds are read
// as the milliseconds the initial migration's comments promise. Columns are
// read by name, so the oldest schema (no provider, no is_summary_message)
// parses too. SourceLine is the rowid of the table named. The tables and
// the columns their queries name are dbStore (parser.CheckStore;
// read_files Optional, a later migration): a missing table or one lacking
// a column is one problem row naming it and the others are still read.
//
//   - sessions: "session title: <title>" at created_at and, for a child
//     session (parent_session_id set: an agent-tool session
//     "<message id>$$<tool call id>" or a "title-<id>" session),
//     "subagent <id> of <parent>" (its rows carry ParentSessionID, its
//     SessionState the parent); "session archived" at archived_at. A
//     session with revert_message_id set (/undo) gives, after its hidden
//     messages (which stay rows), "undone by /undo: <n> message(s) from
//     <id> on are hidden and will be deleted at the next prompt", at the
//     last hidden message's time (inherited). Relay: where sessions has a
//     channel column, a session bound to a channel, or one with a
//     channel-pushed message, reads relayed "yes", the others "no".
//   - messages, ordered by created_at: parts is a JSON array of
//     {"type","data"}. text is a user row (role user), an assistant row
//     (role assistant), or system: "summary: <text>" for a message with
//     is_summary_message=1 and "subagent task: <text>" for a user message
//     in a child session (the parent agent wrote it). A user text that is
//     a <channel ...> element (pushed by an MCP channel server) is the user
//     row of its body, followed by "relayed: message via channel <source>
//     from <sender_name> (<sender>) at <time>". reasoning is a
//     thinking row. tool_call is a tool_use row (ToolUseID its id,
//     ToolInput its input JSON, Text the command, file path, URL, pattern,
//     query or prompt); tool_result (in role tool messages) is a tool_result
//     row with IsError from is_error, and the stored "User denied
//     permission" result also gives "permission decision: denied
//     source=user" with the call's ToolUseID (Crush keeps permission
//     requests in memory only; this result is all that is stored of them);
//     its metadata's "hook" object (the PreToolUse hooks that ran) gives
//     one "hook audit: <name>[ matcher=<m>] decision=<allow|deny|none>[
//     halt][ input rewritten][: <reason>]" row per hook and, when the hooks
//     allowed or denied the call, "permission decision: allowed|denied
//     source=hook[ (turn halted)][: <reason>]".
//     binary attachments give "attachment: <path> (<mime>)", image_url
//     "image: <url>" (data URLs cut after the media type), and a bang-mode
//     shell_command a user row "!<command>" with a shell tool_use and
//     tool_result (exit code appended). finish parts are skipped.
//     Assistant, thinking and tool_use rows carry Model
//     "<provider>/<model>"; "model: <id>" is emitted at a session's first
//     assistant message and "model: <old> -> <new>" on each change.
//     RecordID: "<message id>#<part index>" ("#<i>#decision", "#<i>#hook",
//     "#<i>#hook-<n>", "#<i>#channel", a bang command's "#<i>#call" and
//     "#<i>#result"); session rows "<id>#title", "#subagent", "#archived",
//     "#revert"; a file snapshot its files id; the model row none. A message
//     or session that gives no row is a skip.
//   - files: "file snapshot: <path> version=<n>" at created_at (the
//     content is not emitted).
//   - read_files: "file read: <path>" at read_at.
//
// # crush/projects (target "projects", projects.json)
//
// {"projects":[{path, data_dir, last_accessed}]}: one "project: <path>
// data_dir=<dir>" system row per entry at last_accessed; SourceLine is the
// 1-based array position.
//
// # crush/config (targets "config" and "project")
//
// Every crush.json scope (.config/crush/crush.json,
// .local/share/crush/crush.json, AppData/Local/crush/crush.json,
// .crush/crush.json, a project's crush.json and .crush.json) and the
// crushrc / .crushrc shell configs. Only standing permission entries are
// read: one "permission setting: <key>=<tool> (from <file>, file mtime)"
// row per tool in permissions.allowed_tools (no prompt) and
// options.disabled_tools (hidden from the agent); a crushrc's "permissions
// allow <tool>..." and "permissions deny <tool>..." lines map to the same
// keys. The file is named relative to the home when known. Nothing else is
// decoded, so provider API keys are never emitted.
//
// Deleted sessions (issue 30): crush.db is carved (analyzer/parser/
// sqlitecarve). Recovered sessions and messages records give the rows
// live ones give, under their own ids, each after a system row
// "recovered record: <id> (<where>)"; a session known only from them
// reads recovered yes, a live one with recovered messages partial; an
// older version of a live record is a recovered_copy skip. Tested on a
// store from testdata/typical.sql with a session deleted by Crush's own
// statements (DeleteSessionMessages, DeleteSession): every row comes
// back, the session record partial (its header length and first serial
// type under the freeblock header). Not seen on a real Crush store (the
// generator could not install Crush).
//
// Not done, each outside the seed's Files read (crush.json is read for its
// standing permission entries only): the logs/*.log files, MCP
// disabled_tools, the hooks configuration, the sessions.todos column and
// CRUSH.md.
package crush

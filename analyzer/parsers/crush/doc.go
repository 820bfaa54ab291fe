// Package crush reads the files of Crush (Charm's terminal coding agent).
//
// Evidence: the format was learned from charmbracelet/crush source at
// 37f36e93824e5c4f892e4a817f7f628e2682fe14 (internal/db/migrations/*.sql,
// internal/db/sql/*.sql, internal/message/content.go and message.go,
// internal/session/session.go, internal/agent/agent.go and
// coordinator.go, internal/agent/tools/tools.go, internal/projects,
// internal/config/config.go, internal/shellconfig/permissions.go). The
// fixtures are synthetic .sql files built on that schema; no real Crush
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
// parses too. SourceLine is the rowid of the table named.
//
//   - sessions: "session title: <title>" at created_at and, for a child
//     session (parent_session_id set: an agent-tool session
//     "<message id>$$<tool call id>" or a "title-<id>" session),
//     "subagent <id> of <parent>".
//   - messages, ordered by created_at: parts is a JSON array of
//     {"type","data"}. text is a user row (role user), an assistant row
//     (role assistant), or system: "summary: <text>" for a message with
//     is_summary_message=1 and "subagent prompt: <text>" for a user message
//     in a child session (the parent agent wrote it). reasoning is a
//     thinking row. tool_call is a tool_use row (ToolUseID its id,
//     ToolInput its input JSON, Text the command, file path, URL, pattern,
//     query or prompt); tool_result (in role tool messages) is a tool_result
//     row with IsError from is_error, and the stored "User denied
//     permission" result also gives "permission decision: denied
//     source=user" with the call's ToolUseID (Crush keeps permission
//     requests in memory only; this result is all that is stored of them).
//     binary attachments give "attachment: <path> (<mime>)", image_url
//     "image: <url>" (data URLs cut after the media type), and a bang-mode
//     shell_command a user row "!<command>" with a shell tool_use and
//     tool_result (exit code appended). finish parts are skipped.
//     Assistant, thinking and tool_use rows carry Model
//     "<provider>/<model>"; "model: <id>" is emitted at a session's first
//     assistant message and "model: <old> -> <new>" on each change.
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
// Not done: the logs/*.log files, MCP disabled_tools, hooks, the
// sessions.todos column and CRUSH.md.
package crush

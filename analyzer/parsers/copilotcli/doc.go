// Package copilotcli parses GitHub Copilot CLI's on-disk state under
// ~/.copilot (or the pre-XDG ~/.local/state/.copilot and ~/.config/.copilot).
// The GitHub Copilot Desktop app's bundled CLI writes its sessions into the
// same session-state/, so they are read here too (client_name
// github/autopilot on the session metadata: row).
//
// Parsers (IDs "copilot-cli/<format>"):
//
//   - events: session-state/<id>/events.jsonl, the append-only event log.
//     Each line is {type, data, id, timestamp, parentId} (agentId on a
//     sub-agent's events). Lines are streamed with parser.Lines; a line cut
//     by a crash with a record glued after it keeps the glued record, any
//     other bad line is a problem and the parse goes on. Session id:
//     session.start's data.sessionId, else the directory name; project path:
//     context.cwd of session.start / session.resume / session.context_changed,
//     else workspace.yaml's cwd (read as a related file). A record without a
//     timestamp inherits the previous record's time (time_basis inherited).
//     Rows:
//     user.message -> user (content, the text as typed; transformedContent
//     is the injected copy and is not shown), or system "user.message
//     source=<source>: ..." when source names a skill or another agent or
//     isAutopilotContinuation is set; each attachment a system "attachment:
//     <type> <path>" row.
//     assistant.message -> thinking (reasoningText) and assistant (content)
//     rows with data.model or the current model; its toolRequests are held
//     and written as tool_use rows at the reply's time only when no
//     tool.execution_start ever follows (a denied, aborted or cut-off call).
//     assistant.reasoning -> thinking.
//     tool.execution_start -> tool_use (ToolName toolName, ToolUseID
//     toolCallId, ToolInput the arguments, Text the command / pattern /
//     URL / path); tool.execution_complete -> tool_result (Text
//     result.content, else detailedContent, plus "error: <code>: <message>";
//     IsError from success).
//     permission.requested -> "permission request: <kind> <command|path|url>
//     (<intention>)" and permission.completed -> "permission decision:
//     <result.kind> feedback=.. rules=.. approval=..", both with ToolUseID
//     the toolCallId (the decision's joined through requestId when it has
//     none).
//     session.model_change -> "model: <id>" / "model: <old> -> <new>";
//     session.info -> "session.info <infoType>: <message>"; session.warning
//     and session.error alike; session.mode_changed -> "mode: <old> -> <new>";
//     session.permissions_changed -> "permission mode: <old> -> <new>";
//     hook.start / hook.end -> "hook <hookType> start: <input>" / "hook
//     <hookType> end: success=.. output=.. error=.."; subagent.started /
//     completed / failed -> "subagent <toolCallId> of <session>: <verb>
//     <agentName> ..."; assistant.usage with an initiator or a
//     non-conversation interactionType, and any event type naming
//     "utility", -> "utility model <id>: k=v ..."; system.message ->
//     "system.message <role>: <content>" (the system prompt); session.start,
//     session.resume, session.shutdown, session.compaction_complete (with its
//     summary), session.truncation, assistant.turn_start / turn_end and
//     abort get "<type>: k=v" rows; every other type, known or not, is a
//     system row "<type>: <data as compact JSON>", never dropped.
//
//   - workspace: session-state/<id>/workspace.yaml (a flat YAML mapping:
//     id, cwd, client_name, name, user_named, summary_count, created_at,
//     updated_at, ...). One "session metadata: name=".." client=.. cwd=..
//     k=v" row at created_at. When any of remote_steerable, mc_task_id,
//     mc_session_id, mc_last_event_id is present: "session synced: remote
//     session <mc_session_id> task <mc_task_id> last event
//     <mc_last_event_id> remote_steerable=<value> (from workspace.yaml, file
//     mtime)" at the file's modification time, and the session is recorded
//     Synced "yes". YAML is read by a small top-level reader (no YAML
//     dependency): quoted scalars and | / > block scalars are handled.
//
//   - settings: permissions-config.json (every stored approval; docs:
//     locations.<path>.tool_approvals[], project_path the location) and
//     settings.json (JSON with comments; only keys naming allow, deny,
//     trust, permission, approval, sandbox or yolo, such as allowedUrls,
//     deniedUrls and trusted_folders): one "permission setting: <key>=<value>
//     (from <file>, file mtime)" row per leaf or array element. Values of
//     keys naming a token, secret, password or key are printed [redacted].
//
//   - process-log: logs/process-*.log, one "sign-in: <line>" row per line
//     about signing in or out, at the line's leading timestamp (a zone-less
//     time is local-as-utc); GitHub token values are masked.
//
//   - session-store: session-store.db (secondary; SourceLine the rowid):
//     sessions -> "session record: cwd=.. repository=.. branch=.. summary=.."
//     at created_at; turns -> user (user_message) and assistant
//     (assistant_response) rows at the turn's timestamp, which is when the
//     turn ended (hence the engine's one-hour dedup window against
//     events.jsonl); session_files, session_refs, checkpoints and
//     forge_trajectory_events -> "<table>: col=value ..." rows. Columns are
//     read by name and missing ones tolerated.
//
//   - rewind-index: session-state/<id>/rewind-file-snapshots/index.json
//     (secondary): per snapshot the turn's prompt (user) and "rewind
//     snapshot: ... files <paths>" (system).
//
//   - command-history: command-history-state.json (secondary): one user
//     row per remembered prompt, with no time, session or cwd.
//
// Not read: the legacy flat session-state/<id>.jsonl transcript (pre-1.0
// builds), sidebar-sessions-state/*.json (a project-path join the catalog
// uses), mcp-config.json, config.json (secret), session.db (todos),
// checkpoints/ and files/ under a session, token counts.
//
// Evidence. Event vocabulary and data fields: github/copilot-sdk
// nodejs/src/generated/session-events.ts (generated from the runtime's
// session-events.schema.json) at cc0438d66e3e68c333537cb935d9425d4e4ed8d5
// (2026-08-21), which also marks which types are ephemeral (never written
// to events.jsonl); the envelope and a session's order (session.start,
// user.message, assistant.turn_start, assistant.message with toolRequests,
// tool.execution_start / complete, assistant.turn_end, session.shutdown)
// as in jayparikh/agentviz src/__tests__/fixtures/test-copilot.jsonl at
// 96a380ff20a84890d6a015016af107c570e86f4f; a real 1.0.63 events.jsonl
// head (session.start, session.model_change with reasoningEffort null,
// system.message) and workspace.yaml (id, cwd, client_name: github/cli,
// name, user_named, summary_count, created_at, updated_at) quoted in a
// public Copilot CLI transcript found by code search; session-store.db's
// sessions (id, cwd, repository, branch, summary, created_at, updated_at)
// and turns (session_id, turn_index, user_message, assistant_response,
// timestamp) as read by a public export script; permissions-config.json's
// locations/tool_approvals from docs.github.com's CLI config-dir
// reference. The seed's notes on real installs of 1.0.98 (macOS, Ubuntu,
// Windows winget) and the 1.0.99-2 bundled with Copilot Desktop 1.1.30
// name the files and row wordings. Fixture only (no real file seen here):
// the utility-model record (taken to be assistant.usage with an
// initiator), the process log's sign-in line, rewind-file-snapshots
// index.json and command-history-state.json shapes, and session-store's
// session_files, session_refs, checkpoints and forge_trajectory_events
// columns (read generically). No real Copilot CLI run was available in
// fixtures/roots (it needs GitHub sign-in).
package copilotcli

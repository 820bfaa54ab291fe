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
//     else workspace.yaml's cwd (read as a related file), else the cwd of the
//     sidebar-sessions-state/*.json file that lists the session (the project
//     join). A record without a timestamp inherits the previous record's
//     time (time_basis inherited).
//     Identity: RecordID is the event's id (a UUID v4 the runtime generates
//     per event); a row derived from one event is "<id>#<word>":
//     "#reasoning" (an assistant.message's reasoningText), "#tool<i>" (its
//     i-th toolRequests entry written because it never started),
//     "#attachment<i>". Nothing is de-duplicated here: the engine's identity
//     merge writes a record once. An assistant.message that holds only
//     calls that started (their tool.execution_start rows show them) is a
//     skip "no_evidence:assistant.message_without_text"; every other event
//     gives rows.
//     Sub-agents: an event with agentId (the sub-agent instance id), or
//     with only the deprecated data.parentToolCallId (resolved to the
//     agentId another event of that task call named, else
//     "<session>/<toolCallId>"), is in the sub-agent's own session with
//     parent_session_id the file's session; the sub-agent's first event is
//     preceded by "subagent <id> of <parent>" (RecordID "<id>#subagent") and
//     its session state carries the parent. Its user.message (source
//     "agent-<agent id>", the inter-agent prompt, or none) is the system row
//     "subagent task: <content>", never user. Models are tracked per
//     session, so a sub-agent's model_change does not move the parent's.
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
//   - history-session: history-session-state/session_<id>_<ms>.json, the
//     legacy single-object session of the builds before events.jsonl
//     (collected as catalog target history-session-state). One JSON object:
//     sessionId (else the <id> of the file name), startTime and endTime
//     (system rows "session start|end (legacy history-session-state)" at
//     those times), chatMessages (the OpenAI chat shape: role user ->
//     user, assistant -> assistant and one tool_use per tool_calls entry
//     with ToolUseID and RecordID the call id and ToolInput the arguments
//     string's JSON, tool -> tool_result with tool_call_id and name
//     (RecordID "<id>#result"), system -> "system prompt: <text>"; another
//     role is a skipped_record problem, an empty message a skip) and
//     timeline (entries with id, type, timestamp, text, callId, toolTitle,
//     arguments, result.type: one system row "timeline <type>: <tool>:
//     <text>: <arguments>: result <type>" at the entry's timestamp,
//     RecordID "<session>#timeline:<id>"). The chat messages record no time
//     of their own: they are undated (time_basis none), never given the
//     session's start. SourceLine is the line each member starts on; a cut
//     file keeps what precedes the cut with a problem. Shape learned from
//     public readers of the directory found by code search: a usage
//     tracker's SessionProcessor (session_*.json, chatMessages roles user,
//     assistant, tool, system with tool_calls; sessionId, startTime,
//     endTime), a prompt-ingest test fixture (chatMessages with
//     tool_calls[].function {name, arguments} and role tool with name) and
//     a Rust analyzer of the "legacy single-object dumps" (timeline entries
//     of type tool_call_completed with toolTitle, arguments, timestamp,
//     result.log); no real file was seen here, so the fixture is
//     source-derived.
//
//   - workspace: session-state/<id>/workspace.yaml (a flat YAML mapping:
//     id, cwd, client_name, name, user_named, summary_count, created_at,
//     updated_at, ...). One "session metadata: name=".." client=.. cwd=..
//     k=v" row at created_at. When any of remote_steerable, mc_task_id,
//     mc_session_id, mc_last_event_id is present: "session synced: remote
//     session <mc_session_id> task <mc_task_id> last event
//     <mc_last_event_id> remote_steerable=<value> (from workspace.yaml, file
//     mtime)" at the file's modification time, and the session is recorded
//     Synced "yes"; a workspace.yaml with none of them records Synced "no"
//     (the runtime adds them when the session is synced to the account).
//     RecordIDs "<id>#workspace" and "<id>#synced". YAML is read by a
//     small top-level reader (no YAML dependency): quoted scalars and | / >
//     block scalars are handled.
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
//     time is local-as-utc); GitHub token values are masked; every other
//     line is a skip "no_evidence:log_line".
//
//   - session-store: session-store.db (secondary; SourceLine the rowid):
//     sessions -> "session record: cwd=.. repository=.. branch=.. summary=.."
//     at created_at; turns -> user (user_message) and assistant
//     (assistant_response) rows at the turn's timestamp, which is when the
//     turn ended (hence the declared one-hour window against events.jsonl,
//     the seed's); session_files, session_refs, checkpoints and
//     forge_trajectory_events -> "<table>: col=value ..." rows; a turn with
//     neither text is a skip "no_evidence:empty_turn". RecordIDs from the
//     store's own unique keys: "<session>#session-record",
//     "<session>/turn/<turn_index>#user" and "#assistant",
//     "<session>/<table>/<key values>" for session_files (file_path),
//     session_refs (ref_type, ref_value) and checkpoints
//     (checkpoint_number); forge_trajectory_events has no unique key and
//     its rows none. Columns are read by name and missing ones tolerated
//     (the real 1.0.102 store of fixtures/roots/real-agents-2 has these
//     columns), but for the ones that name a row's session (sessions.id,
//     turns.session_id and turn_index, the others' session_id): a table
//     missing or lacking one is a problem row naming it and the other
//     tables are read (parser.CheckStore; no release is known to lack
//     one of the six).
//
//   - rewind-index: session-state/<id>/rewind-file-snapshots/index.json
//     (secondary, one-hour window as the seed gives): per snapshot the
//     turn's prompt (user, RecordID the eventId of the user.message it
//     copies, so the identity merge writes it once and it stands for a
//     prompt the event log lost) and "rewind snapshot: ... files <paths>"
//     (system, RecordID the snapshotId). 1.0.102 keys files by a hash of
//     the path with {path, preimage, postimage, ...} values (real-agents-2);
//     the paths are listed.
//
//   - command-history: command-history-state.json (secondary, window 0:
//     no time): one user row per remembered prompt, with no time, session
//     or cwd; an empty entry is a skip "empty_prompt".
//
// Not read, each for its reason: mcp-config.json (server definitions, no
// event), config.json (catalog kind secret: never handed to a parser),
// session.db (the session's todos table, no time or turn), checkpoints/
// index.md (a title list the session-store checkpoints rows already
// hold) and files/ under a session (the agent's scratch output), and the
// session-store tables the seed does not list (assistant_usage_events,
// dynamic_context_items, forge_skill_proposals, the search index: token
// counts and search copies of the turns).
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
// columns (read generically). Real files: Copilot CLI 1.0.102 run against
// the loopback mock model (fixtures/roots/real-agents-2: events.jsonl with
// a sub-agent carrying agentId, workspace.yaml, session-store.db,
// rewind-file-snapshots/index.json, process logs); the sub-agent fields
// (agentId "Sub-agent instance identifier", user.message source
// "agent-<agent-id>" for an inter-agent prompt, the deprecated
// parentToolCallId) and session.snapshot_rewind / context_cleared from
// session-events.ts at the commit above.
package copilotcli

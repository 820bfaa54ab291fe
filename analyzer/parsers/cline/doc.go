// Package cline parses Cline's files: the Cline SDK layout the CLI 3.x
// writes under ~/.cline/data (session records, messages, sessions.db, the
// search index, the hub's event log, the hook audit log), the extension's
// task files and settings. The task-file format that Roo Code and the other
// Cline forks share is read by analyzer/parser/format/clinetask
// (ParseUIMessages, ParseAPIHistory, LoadTask, IndexEntry, ParseMCPSettings
// and ParseSettingsKeys, called here with FlavorCline and by Roo Code with
// FlavorRoo); this package holds Cline's Specs for it.
//
// # The extension's task files and settings
//
// Files (VS Code <editor>/User/globalStorage/saoudrizwan.claude-dev/ and the
// CLI 2.x's ~/.cline/data/):
//
//   - cline/ui-messages: tasks/<id>/ui_messages.json, the preferred record
//     of a task: a JSON array of ClineMessage {ts (epoch ms), type ask|say,
//     ask|say, text (often JSON in a string), reasoning, images, files,
//     partial, modelInfo{modelId}, lastCheckpointHash}. Rows: say "task" and
//     "user_feedback" are user rows (Roo: also the first say "text", before
//     the first api_req_started); say "text", "completion_result" and ask
//     "followup"/"plan_mode_respond" (the question or response) are
//     assistant rows; say "reasoning" and any reasoning field are thinking
//     rows; say/ask "tool" (ClineSayTool JSON) is a tool_use row (ToolName
//     the JSON's tool, Text its path/regex/url..., ToolInput the JSON);
//     say/ask "command" a tool_use execute_command (the REQ_APP suffix
//     removed) and the following command_output its tool_result;
//     use_mcp_server and browser_action(_launch) tool_use rows with
//     mcp_server_response and browser_action_result as results. ui_messages
//     records no call ids, so a call's ToolUseID is "ui-<ts of the call>".
//     say "command_permission_denied" gives "permission decision: denied
//     source=CLINE_COMMAND_PERMISSIONS reason=<text>", clineignore_error
//     "permission decision: blocked source=.clineignore path=<path>"; a Roo
//     tool ask with isAnswered gives "permission decision: approved
//     source=isAnswered" (set on approval, by the user or auto-approval).
//     api_req_started is "api_req_started: tokensIn=... cost=..." (the
//     request text left out); every other say/ask is a system row
//     "<say>: <text>" / "ask <ask>: <text>" (error, checkpoint_created,
//     resume_task, ...). modelInfo.modelId gives "model: <id>" and "model:
//     <old> -> <new>" rows; without it, the index's modelId. SourceLine is
//     the 1-based element index. Session id: the task folder name; project:
//     cwdOnTaskInitialization from state/taskHistory.json (Roo:
//     history_item.json / _index.json workspace), else the "Current Working
//     Directory (...)" of the first api_req_started request.
//   - cline/api-history: tasks/<id>/api_conversation_history.json (Anthropic
//     MessageParam[] plus ts, modelInfo, metrics), read only when the
//     folder's ui_messages.json was not collected. Tool results are either
//     tool_result blocks (newer builds; paired on tool_use_id) or plain
//     user text "[read_file for 'X'] Result:" with no id (paired with the
//     previous assistant message's first unanswered call of the same tool
//     name, in order); "Tool [x] was not executed because a tool has
//     already been used in this message" is a system row that uses up that
//     call. Older builds wrote calls as XML tags in the assistant text
//     (<read_file><path>x</path></read_file>): each is a tool_use row with
//     the id "xml-<element>-<n>", and <thinking> tags are thinking rows. A
//     user text is a user row only inside <task>, <feedback>, <answer> or
//     <user_message> (also inside a tool result: a followup answer); the
//     rest (environment_details, TASK RESUMPTION, notices) is system.
//     "The user denied this operation." gives "permission decision: denied
//     source=user"; "Command execution blocked by CLINE_COMMAND_PERMISSIONS"
//     "permission decision: denied source=CLINE_COMMAND_PERMISSIONS
//     reason=..."; Roo's JSON results {"status":"denied"|"approved",
//     feedback} "permission decision: denied|approved source=user". An
//     element without ts takes the last ts seen, else the task start (the
//     folder id as epoch ms, else the index ts), as TimeInherited.
//   - cline/task-history: state/taskHistory.json (HistoryItem[]): a task
//     whose folder was not collected gives "task <id> is listed in
//     taskHistory.json but its folder is gone: <task>" at the entry's ts
//     (cline/cline#7101); a folder missing from the index is still read by
//     the parsers above (cline/cline#2321).
//   - cline/task-metadata: tasks/<id>/task_metadata.json: "file in context:
//     <path> read by the agent|edited by the agent|edited by the user
//     (record_state=.. source=..)" at each date, "model usage:
//     <provider>/<model> mode=<mode>" at each model_usage ts.
//   - cline/settings: globalState.json and settings/global-settings.json
//     (autoApprovalSettings.*, mode, yoloModeToggled, command permission
//     keys) and settings/cline_mcp_settings.json (mcpServers.<name>.
//     autoApprove, one row per tool, and disabled): "permission setting:
//     <key>=<value> (from <file>, file mtime)". Secret-looking keys print
//     [redacted].
//   - cline/input-history: the CLI's cache/user_input_history.jsonl
//     ({prompt, ts} per line): secondary user rows with no session; every
//     rewrite stamps all lines with the write time, so only the last line
//     keeps its time.
//
// Every JSON array file is decoded element by element from the stream
// (DecodeArray): a file cut during a whole-file rewrite
// (`[{...},{"ts":2,"type":"say","say":"te`, cline/cline#954) gives the
// elements before the cut and a problem; a stray "]" after the array
// (`[{...}]]`, cline/cline#335) gives every element and a problem.
//
// Validated against (task files): the real Cline CLI API history of tomjnsn/agentlogs
// fixtures/cline/crud.json at 556a20378d77563a14afa5b45a09b7b3343fd58d
// (shared/agent-samples/cline; 42 messages, 38 tool_use, id-less text
// results, no ts); source cline/cline at
// 9ee618111d58630fea30b27439216448225458e0 (before the move to apps/):
// src/core/task/tools/utils/ToolResultUtils.ts (the "<desc> Result:" text,
// tool_result blocks, the "cline" fallback id), src/core/prompts/responses.ts
// (toolDenied, toolAlreadyUsed, permissionDeniedError), and at
// 21cb8d2525bcedf1f4b6890b27a74a14fe7451e4: apps/vscode/src/core/storage/disk.ts
// (GlobalFileNames), apps/vscode/src/shared/ExtensionMessage.ts
// (ClineMessage, ClineAsk, ClineSay, ClineSayTool), shared/HistoryItem.ts,
// apps/cli/src/utils/input-history.ts. No real ui_messages.json was
// available: that format is validated on synthetic fixtures only.
//
// # The SDK layout (the CLI 3.x, ~/.cline/data)
//
//   - cline/sdk-messages: sessions/<id>/<id>.messages.json {version,
//     updated_at, agent, sessionId, origin, messages[], system_prompt},
//     streamed message by message (SourceLine the 1-based position). A
//     message {id, role, content[], ts (epoch ms), modelInfo{id, provider},
//     metrics}: user text blocks are the typed prompt only inside
//     <user_input mode="act|plan|yolo">...</user_input> (unwrapped; text
//     around it, such as a <mode_notice>, is a system row; a typed
//     <user_command slash="x"> is a user row "/x ..."); any other user text
//     is a system row (a subagent's first one is "subagent task: ...").
//     Assistant text, thinking/reasoning, tool_use (ToolInput the full
//     input; Text the commands of run_commands one a line, the path of
//     editor, the paths of read_files, the task of spawn_agent) and
//     tool_result blocks (linked by tool_use_id; IsError from is_error or
//     a success:false item; the text of run_commands' [{query, result,
//     success}] is each result). A result the SDK marks as not approved
//     (the "-- NOT a tool or system failure. Clarify with user before
//     proceeding." suffix: 'Tool "run_commands" requires approval in a TTY
//     session' in-process, "Tool approval requires an interactive session,
//     but this session is non-interactive." through the hub), blocked by a
//     runtime hook or by plan mode also gives "permission decision: denied
//     tool=<name> source=approval|hook|plan_mode reason=<text>". modelInfo
//     gives "model: <id>" and "model: <old> -> <new>"; the <user_input>
//     mode "mode: <m>" and "mode: <old> -> <new>". RecordID: the message id
//     and block index ("<id>#<n>"; "<id>#model", "<id>#mode",
//     "<id>#<n>#decision", "<id>#<n>#context"); a message without an id is
//     "<session>:<position>". A message without ts inherits the previous
//     one's (TimeInherited). A subagent's agent_<x>.messages.json in the
//     parent's folder is session "<parent>__agent_<x>" (the SDK's own id)
//     with ParentSessionID <parent>, opened by "subagent <id> of
//     <parent>". ProjectPath is the session record's cwd. A file cut
//     mid-rewrite keeps the messages before the cut and reports it.
//   - cline/sdk-session: sessions/<id>/<id>.json, the session record, and
//     cline/sessions-db: the same fields in db/sessions.db's sessions table
//     (the store of record; SourceLine the rowid). Both give the same rows
//     with the same record ids, so the engine keeps one and a session whose
//     folder is gone keeps them: "session started: source= pid=
//     interactive= provider= model= [subagent_of= agent=] [history_origin=
//     trigger=] version= [imported_from= source_session= source_path=
//     source_model= imported_at=]" at started_at ("<id>#start"); the prompt
//     as a secondary user row ("<id>#prompt"; a subagent's as "subagent
//     task: ..."); "permission setting: autoApproveTools= mode= (session
//     metadata)"; "checkpoint: <kind> <ref> (run <n>)" per checkpoint at its
//     createdAt; "session synced: enterprise blob upload adapter= bucket=
//     object=<keyPrefix/>sessions/<user>/<id>/messages.json" for
//     metadata["enterprise.blobUpload"] (never the keys); "session ended:
//     status= exit_code= [marker= by= at= pid=]" at ended_at (the
//     stale-session reconciler's terminal marker), or "session status:
//     <status> (no end recorded)". Session state: origin "local" ("remote"
//     for executionTarget cloud), synced "yes" with a blob upload, "no"
//     without (the SDK registers every upload in the record); a subagent
//     row's parent.
//   - cline/session-search: db/session-search.db, the hub's FTS5 index
//     (secondary, no time): each session's metadata document gives
//     "session indexed: <title>" at its start and the prompt
//     ("<id>#prompt"); each message document, when the session's messages
//     file is not collected or holds fewer messages (deleted, rewritten),
//     one undated row: the typed prompt of a user text document, else
//     "indexed <role> message <n>: <content>" (the SDK flattens every
//     string of the message, one a line, so blocks cannot be told apart).
//     Documents the collected transcript holds are skipped as copies.
//   - cline/hub-events: db/hub-events-<hub>.db, the hub daemon's event log
//     (secondary): run.completed events carry the run's messages with
//     their ids, read as the messages file is (same rows, same record ids:
//     a deleted session's runs stay; no model, mode or subagent rows, which
//     depend on the whole conversation); tool.started/tool.finished give
//     the calls no run.completed holds, except those made while a
//     spawn_agent call is open (the subagent's, logged under the parent:
//     skipped, its own files hold them); run.failed/aborted/cancelled are
//     "hub <event>: <reason>"; every other event is counted as bookkeeping.
//   - cline/hooks: logs/hooks.jsonl, the hook audit log: "hook audit:
//     <hook> agent= [parent_agent=] [task=]" for agent_start, agent_resume,
//     pre_compact; "hook audit: agent_abort agent= reason=", "hook audit:
//     agent_error agent= <name>: <message>", "hook audit: session_shutdown
//     reason= pid= source=" (the stale-session reconciler); tool_call,
//     tool_result, agent_end (turn.outputText) and prompt_submit are
//     secondary copies (same session, same text, five-minute window). A
//     line with agent_id and parent_agent_id is the subagent's, session
//     "<root>__<agent_id>". The CLI 3.0.65 gives the lead agent its own
//     runtime hooks, so only subagents and the reconciler write here.
//   - cline/input-history (above) reads the TUI's cache/user_input_history.jsonl.
//   - cline/settings also reads globalState.json cloudSessionStatuses ({<cloud
//     session>: {status, observedAt}}): "session origin: remote (Cline
//     Cloud, from globalState.json)" and "session synced: Cline Cloud
//     status=<status>" at observedAt (else file mtime), origin remote and
//     synced yes; cloudTaskTarget is a permission setting row.
//   - cline/cloud-pending: cloud-pending-starts/<pid>-<uuid>.json ([{sessionId,
//     account, endpoint}]): "session origin: remote (Cline Cloud start
//     pending) endpoint= account= host_pid=" at the file's mtime.
//   - cline/sync-queue: the extension's cache/sync-queue.json ({items:
//     {<id>: {taskId, key, data, timestamp, status, retryCount,
//     lastError}}}): "session synced: queued upload <key> status= retries=
//     (<n> bytes) [error=]" at each timestamp; synced "yes" for a task with
//     a synced item, "no" otherwise.
//
// Accounting: every array element, message, table row and line gives rows,
// a Skip (empty_message, state_only, copy_of_transcript,
// copy_in_run_completed, subagent_call, hub_event:<name>,
// covered_by_ui_messages, empty_prompt) or a problem.
//
// Not read: db/teams.db, tasks.db, cron.db, connectors.db and
// hub-runs-*.db (agent teams, the agenda, schedules, connectors, the hub's
// run queue: collected; empty in every real store seen, so their rows are
// unknown beyond the schema), sessions.db's schedules,
// schedule_executions and subagent_spawn_queue (the same), logs/cline.log
// and hub-daemon.log (runtime diagnostics: the session records hold the
// sessions, their times and pids), cache/feature-flags.json (a cache of
// server flags), settings/providers.json (catalog kind secret: it holds
// the API key), the messages file's system_prompt (vendor text); prompts of
// SDK releases before the <user_input> wrapper are system rows (the
// session record's prompt still gives the first); context_history.json;
// the extension's global state rows in the editor's state.vscdb.
//
// Validated against (SDK layout): the Cline CLI 3.0.65 (npm cline,
// @cline/core and @cline/shared 0.0.86, linux-x64 binary) run against the
// loopback mock model, fixtures/roots/real-agents-3 (scripts/
// gen-real-fixtures-3.sh, December 2026): in-process and hub runs, both
// denials, the editor, a subagent, a deleted session, a killed one and a
// TUI resume with a model switch; source cline/cline at
// 21cb8d2525bcedf1f4b6890b27a74a14fe7451e4 (sdk v0.0.78):
// sdk/packages/shared/src/prompt/format.ts (the user_input and
// user_command wrappers), sdk/packages/core/src/session/services/
// persistence-service.ts (the stale-session reconciler),
// session-manifest-store.ts and hooks/hook-file-hooks.ts (hooks.jsonl),
// session/history-origin.ts, apps/cli/src/utils/approval.ts and
// input-history.ts, apps/vscode/src/shared/services/worker/queue.ts (the
// sync queue); the 0.0.86 bundles (core/dist/index.js: the session-search
// index, the import marker metadata.importedFrom, the approval reasons;
// shared/dist/remote-config: enterprise.blobUpload and its object key);
// cline/cline at 345f6a488ef5abcb325b2d01fddbc3f1e9ecb0b8:
// apps/vscode/src/sdk/cloud-pending-starts.ts and the cloud session
// coordinator (cloudSessionStatuses). Cline Cloud, the sync queue, blob
// uploads and imports need an account or an enterprise config: fixture
// only.
package cline

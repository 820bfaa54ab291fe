// Package cline parses Cline's task files and settings, and exports the
// task-file reader that Roo Code and the other Cline forks share (Roo
// Code's package calls ParseUIMessages, ParseAPIHistory, LoadTask,
// IndexEntry, ParseMCPSettings and ParseSettingsKeys with FlavorRoo; Kilo
// Code's pre-migration VS Code tasks are the same format and can be read
// the same way).
//
// Files (VS Code <editor>/User/globalStorage/saoudrizwan.claude-dev/ and the
// CLI's ~/.cline/data/):
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
// Not read yet: the SDK session files (sessions/<id>/<id>.json,
// *.messages.json), db/sessions.db and session-search.db, logs/hooks.jsonl,
// cache/sync-queue.json, cloud-pending-starts/*.json and the
// cloudSessionStatuses of globalState.json, context_history.json; the
// extension's global state rows in the editor's state.vscdb.
//
// Evidence: the real Cline CLI API history of tomjnsn/agentlogs
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
package cline

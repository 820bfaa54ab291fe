// Package roocode parses Roo Code's task files and settings. Roo Code is a
// Cline fork that keeps Cline's task files, so the transcripts are read by
// the cline package's exported reader with clinetask.FlavorRoo.
//
// Files (VS Code <editor>/User/globalStorage/rooveterinaryinc.roo-cline/
// and the CLI's ~/.vscode-mock/global-storage/):
//
//   - roo-code/ui-messages: tasks/<id>/ui_messages.json (ClineMessage
//     array, packages/types/src/message.ts), rows as in the cline package
//     with Roo's differences: the prompt is the first say "text" (startTask
//     says the task as "text", before the first api_req_started); a tool
//     ask with isAnswered:true (set when the ask was approved, by the user
//     or by auto-approval) gives "permission decision: approved
//     source=isAnswered" after its tool_use row; a task whose
//     history_item.json names a parentTaskId opens with "subagent <id> of
//     <parentTaskId>". Session id: the folder name (a UUID in current
//     releases); project: history_item.json workspace, else the
//     tasks/_index.json entry, else the CLI global-state.json taskHistory,
//     else the "Current Workspace Directory (...)" of the first request.
//   - roo-code/api-history: tasks/<id>/api_conversation_history.json. When
//     the folder's ui_messages.json was not collected it gives the whole
//     transcript (clinetask.APIFull: tool_result blocks paired on
//     tool_use_id, <user_message>/<task>/<feedback> as user rows, reasoning
//     items as thinking rows). Beside ui_messages.json it gives only the
//     decisions the UI does not show (clinetask.APIDecisions): a result
//     {"status":"denied",feedback} "permission decision: denied
//     source=user", {"status":"approved",feedback} (toolApprovedWithFeedback)
//     "permission decision: approved source=user", and the .rooignore
//     access_denied error "permission decision: blocked source=.rooignore
//     path=<path>"; in full mode the feedback is also a user row.
//   - roo-code/task-index: tasks/_index.json {version, updatedAt, entries}:
//     a listed task whose folder was not collected gives "task <id> is
//     listed in _index.json but its folder is gone: <task>" at its ts.
//   - roo-code/settings: the CLI's global-state.json (autoApprovalEnabled,
//     alwaysAllow*, allowedCommands, deniedCommands, allowedMaxRequests,
//     allowedMaxCost, mode...), ~/.roo/cli-settings.json (requireApproval,
//     dangerouslySkipPermissions, mode, and "model setting: <provider>/<model>"),
//     settings/mcp_settings.json and a project's .roo/mcp.json
//     (mcpServers.<name>.alwaysAllow, one row per tool, and disabled):
//     "permission setting: <key>=<value> (from <file>, file mtime)".
//     Secret-looking keys are never printed.
//   - roo-code/cli-history: ~/.roo/cli-history.json {version, entries}:
//     secondary user rows, file order, no time or session.
//   - <owner>/extension-state (vscodestate.ExtensionStateParsers, one per
//     state.vscdb owner: vscode, cursor, kiro, pearai, windsurf): the
//     RooVeterinaryInc.roo-cline row. In a global database, its global
//     state: the auto-approval keys as above ("(from state.vscdb, file
//     mtime)"), taskHistory entries whose task folder was not collected
//     ("task <id> is listed in state.vscdb but its folder is gone"), and
//     the Roo Code Cloud settings cache (releases up to 3.53.0):
//     organization-settings (version, cloudSettings, allowList,
//     defaultSettings, hiddenMcps, hideMarketplaceMcps) and user-settings
//     (version, settings.taskSyncEnabled, ...) as "permission setting:
//     <key>.<leaf>=<value> (from state.vscdb RooVeterinaryInc.roo-cline
//     row, cached cloud settings, file mtime)", and clerk-auth-state as
//     "roo code cloud sign-in state: <state>". providerProfiles (API keys)
//     and the secret:// credential rows are never read. In a workspace
//     database, its workspace state: the cloud client's retry queue
//     (roo.retryQueue), one "cloud request queued: <type> <method> <url>
//     [operation=<op>] retries=<n> [last error: <error>]" per request at
//     its timestamp, oldest first, record id "roo.retryQueue:<id>"; the
//     request's headers (the bearer token), body and URL query are never
//     read. The CLI's global-state.json gives the same settings and cache
//     rows (roo-code/settings).
//   - roo-code/workspace-state: the CLI's
//     .vscode-mock/workspace-storage/<hash>/workspace-state.json, the same
//     retry queue rows.
//
// Not read, with the reason: history_item.json on its own (read only as
// the task's context: its fields repeat the task files' and the index's),
// task_metadata.json (file-context tracking of the model's reads, no
// user-visible action).
//
// Evidence: source RooCodeInc/Roo-Code at
// cb836567180a3ff1da6d082f3178b90c3bd22a70 (2026-04-14):
// packages/types/src/message.ts (ClineMessage with isAnswered, ClineAsk,
// ClineSay), packages/types/src/history.ts (HistoryItem),
// src/core/task/Task.ts (startTask's say "text", isAnswered on approval),
// src/core/prompts/responses.ts (toolDenied, toolApprovedWithFeedback,
// rooIgnoreError JSON), src/core/task-persistence/TaskHistoryStore.ts
// (history_item.json, _index.json), src/core/task-persistence/apiMessages.ts,
// src/shared/globalFileNames.ts, apps/cli/src/lib/storage/history.ts and
// settings.ts, apps/cli/src/types/types.ts (CliSettings); the cloud client
// at the same commit: packages/cloud/src/CloudSettingsService.ts
// (organization-settings and user-settings cache keys), WebAuthService.ts
// (clerk-auth-state), retry-queue/RetryQueue.ts and types.ts
// (roo.retryQueue, QueuedRequest) and packages/types/src/cloud.ts (the
// cached settings' schema). No real Roo Code file was available:
// synthetic fixtures only.
package roocode

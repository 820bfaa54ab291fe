// Package vscode parses VS Code's chat state (GitHub Copilot Chat) for
// Code, Code - Insiders, VSCodium, Positron, Trae and the
// .vscode-server*/data remote layout (catalog root vscode-editor-user).
// Positron (Posit's data-science IDE, a VS Code fork) is read here and has
// no agent of its own: its built-in Positron Assistant is a chat
// participant that writes these chatSessions files under Positron/User on
// every OS (kenn-io/agentsview 5386007 positron_provider.go hands them to
// its VS Code Copilot reader unchanged; catalog TestPositronIsVSCode).
//
// Parsers (IDs "vscode/<format>"):
//
//   - chat-session: User/workspaceStorage/<hash>/chatSessions/<id>.json and
//     .jsonl, User/globalStorage/emptyWindowChatSessions/* and
//     transferredChatSessions/*.json.
//     The .json form is ISerializableChatData (version 3: sessionId,
//     creationDate, customTitle, requests[]), decoded from the stream; the
//     "Export Chat" output is the same shape without sessionId and
//     creationDate. The .jsonl form is ObjectMutationLog: line 1
//     {"kind":0,"v":<whole session>}, then {"kind":1,"k":[path],"v":value}
//     (set), {"kind":2,"k":[path],"v":[items],"i":n} (push, truncating to
//     n first), {"kind":3,"k":[path]} (delete). The log is replayed line by
//     line (kind may be a number, a numeric string or a name; a later
//     kind 0, as left by compaction, replaces everything) and only the
//     replayed object is kept; rows are emitted from it, so a request
//     updated later (its result and token counts arrive by kind 1) gives
//     its final state once. A bad line, an entry before kind 0 or an
//     unknown kind is a problem and the replay goes on. A file not named
//     .jsonl whose first value is a log entry is replayed too.
//     Session id: sessionId, else the file name. Project path: the folder
//     (or workspace) URI of the sibling workspaceStorage/<hash>/workspace.json,
//     percent-decoded, read as a related file.
//     Rows per request, at request.timestamp (epoch ms): user
//     (message.text, or the old string message); "attachment: <kind>
//     <name> <path>" per variableData variable; "model: <modelId>" on the
//     first request and "model: <old> -> <new>" on a change (modelId, else
//     result.metadata.resolvedModel). Response parts in order, at the
//     request's time (time_basis inherited): consecutive markdown parts
//     (no kind, markdownContent, markdownVuln, with inlineReference names)
//     make one assistant row; thinking parts (value string or string[];
//     empty ones dropped) a thinking row; a tool call is taken from
//     result.metadata.toolCallRounds[].toolCalls[{id, name, arguments}]
//     with its result from toolCallResults[id] (content[].value), paired in
//     order with the response's toolInvocationSerialized parts, which give
//     is-error (resultDetails.isError, or a terminal exit code other than
//     0) and the "permission decision: <denied|not-needed|setting|
//     standing-approval|user|skipped> source=<scope|id|button|reason>" row
//     from isConfirmed (ConfirmedReason; a boolean before 1.104). When a
//     request has no rounds (exports of old builds, canceled requests,
//     sub-agent parts), the part itself gives the tool_use (toolId,
//     toolCallId, rawInput / resultDetails.input / terminal command line)
//     and, when complete, the tool_result (resultDetails output values, the
//     URIs it lists, terminal output and exit code, else pastTenseMessage).
//     progressTaskSerialized ("progress: Summarized conversation history"
//     marks a compaction), textEditGroup ("file edit: <path> (<n> edits)"),
//     warning, confirmation, elicitation, pull request and unknown parts
//     give system rows; UI-only parts (prepareToolInvocation, undoStop,
//     codeblockUri, progressMessage, ...) none. isCanceled or modelState
//     Cancelled gives "request canceled", result.errorDetails "request
//     error: <message> (code <code>)", modelState Failed without details
//     "request failed", at modelState.completedAt when recorded. Session
//     rows at creationDate: "session title: <customTitle>", "chat session:
//     transferred to another workspace (globalStorage/transferredChatSessions)",
//     "chat session: empty window, no folder open (...)", and "chat
//     session: no requests" for an empty session. SourceLine: the 1-based
//     request index of a .json file; for a .jsonl the line that wrote the
//     request whole (kind 0, its push, or a set of the whole request);
//     every other applied line is a Skip "state_only" (folded into the
//     replayed state). What happened stays: a request a later entry took
//     out of the session (a truncating push, a set of the list or of the
//     request with another one, a delete, a kind 0 rewrite without it) is
//     written too, followed by "request removed from the session by
//     mutation log line <n> (edited, undone or rewound in VS Code)".
//     Record ids: "<session>:<requestId>#<k>" (the k-th row of the
//     request), "<session>:<requestId>#removed", "<session>#<word>" for
//     the session's own rows. Each session reads origin local; when the
//     editor's globalStorage/github.copilot-chat/cloudSessions.json was
//     collected and does not list it, synced no (one it lists reads synced
//     yes through vscode/cloud-sessions).
//
//   - copilot-transcript: User/workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/<sessionId>.jsonl
//     (Copilot Chat's SessionTranscriptService, newest 20 kept): entries
//     {type, data, id, timestamp}, secondary rows of the chat session:
//     session.start "copilot chat transcript: session start (producer=
//     copilotVersion= vscodeVersion= cwd=)", user.message a user row (and
//     "attachment:" rows), assistant.message a thinking row
//     (reasoningText), an assistant row (content) and a tool_use row per
//     toolRequests entry, tool.execution_start a tool_use row only for a
//     call no message requested, tool.execution_complete a tool_result
//     (IsError when success is false); turn start and end are Skips.
//     Times are the entries' own; record ids "transcript:<entry id>#<k>".
//     Spec.Secondary declares no window (the chat session file dates a
//     response by its request; rows pair within the session).
//
//   - state-db: state.vscdb (and .backup) of User/globalStorage,
//     User/profiles/<id>/globalStorage and User/workspaceStorage/<hash>
//     (SQLite ItemTable key/value read through vscodestate.VSCodeState;
//     SourceLine the rowid). Standing tool
//     approvals (keys chat/autoconfirm, chat/autoconfirm-post,
//     chat/servers/autoconfirm, chat/servers/autoconfirm-post,
//     chat/autoconfirm-combination: a JSON array of tool or MCP server
//     ids) give "permission setting: <key>=<id> (from <file>, file
//     mtime)" rows at the file's mtime, with the workspace's project path
//     for a workspace database. The GitHub.copilot-chat row's
//     github.copilot.cloudAgent.ownedTasks ({taskId: recordedAt} or
//     {taskId: {recordedAt, application}}) gives per task, at recordedAt,
//     "session synced: GitHub cloud agent task <id> recorded by VS Code
//     [application=<app>] (from state.vscdb github.copilot.cloudAgent.ownedTasks)"
//     and "session origin: remote GitHub cloud agent", and records the
//     session synced yes, origin remote. Its userSelectedRepositories
//     ([{name, timestamp}], the repositories picked for cloud agent
//     tasks) gives "source host repository: <owner/repo> picked for a
//     cloud agent task (from state.vscdb userSelectedRepositories)" at
//     timestamp. The GitHub account's records (github-<login> and
//     github-<login>-usages, also github-enterprise-, read by
//     parser.AuthAccounts): "source host: github account <login>" at its
//     last use, "github account <login> used by <extension> (<id>)
//     scopes=..." per usage record at its lastUsed, and "permission
//     setting: github account <login> access for <id>=allowed|denied"
//     per access-list entry (file mtime). Tokens are secret:// rows and
//     are never read. This parser stays its own rather than an
//     extension of vscodestate.ExtensionStateParsers: those run over every
//     editor's store, and these records are VS Code's own (Cursor's
//     GitHub sign-in is read by cursor/state-db).
//
//   - settings: User/settings.json and User/profiles/<id>/settings.json
//     (JSON with comments and trailing commas). Keys under chat.*,
//     github.copilot.* or inlineChat.* that name auto-approval, approval,
//     permission, trust, confirmation or the default model
//     (chat.tools.global.autoApprove, chat.tools.terminal.autoApprove,
//     chat.tools.edits.autoApprove, chat.tools.urls.autoApprove,
//     chat.permissions.default, ...) give one "permission setting:
//     <key>[.<sub>]=<value> (from <file>, file mtime)" row per leaf or
//     array element. Values of keys naming a token, secret or key are
//     printed [redacted].
//
//   - cloud-sessions: User/globalStorage/github.copilot-chat/cloudSessions.json
//     (CloudSessionIdStore: {localSessionId: {cloudSessionId, cloudTaskId}}):
//     one "session synced: cloud session <id> task <id> (from <file>, file
//     mtime)" row per local session, which is recorded synced yes.
//
//   - chat-editing: User/workspaceStorage/<hash>/chatEditingSessions/<id>/state.json
//     (secondary; survives the chat's deletion): "chat edited file: <path>
//     state=<modified|accepted|rejected> request=<id> model=<id>" per entry
//     of recentSnapshot / pendingSnapshot (storage versions 1 and 2; RecordID
//     "<session>#edited:<path>": a file in both snapshots is one record, one
//     row when they agree, both and a duplicate_id problem when not), and
//     "chat edited file: <path> request=<id> (baseline kept)" per
//     timeline.fileBaselines entry (versions 3 to 5, whose entry states are
//     stored elsewhere); file contents are never printed. At the file's
//     mtime; session id the directory name (or sessionId).
//
// Not read, with the reason: workspace.json on its own (a project join,
// read as each session's project); mcp.json and prompts/* (server and
// prompt definitions, no record of use); chat.ChatSessionStore.index
// (the list of the chatSessions files, which are read themselves); other
// state.vscdb keys (UI state); Copilot Chat's debug-logs (diagnostics
// without a stable format); token counts and timings (not evidence of an
// action).
//
// Evidence. Formats from microsoft/vscode source at
// 047238f9fe1b7661362b3f27cfbddd503339cb1b:
// src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts (entry
// kinds, replay, compaction), chatSessionStore.ts (storage roots:
// chatSessions, emptyWindowChatSessions, the older
// workspaceStorage/no-workspace/chatSessions, transferredChatSessions);
// chatSessionOperationLog.ts at 03d43368c3ce601d54d8eceb01b11cf9758b9e4a
// (the stored request schema: modelState, isCanceled deprecated, result,
// modelId); chatModel.ts and chatService.ts (ISerializableChatRequestData,
// ResponseModelState, IChatToolInvocationSerialized, ToolConfirmKind) as
// found by code search at 8c0354598aa91fc764e1b00707fcc376250e1cc6;
// browser/tools/languageModelToolsConfirmationService.ts at
// 8c0354598aa91fc764e1b00707fcc376250e1cc6 (the autoconfirm keys, stored
// as an array of ids per scope); chatEditingSessionStorage.ts
// (IChatEditingSessionDTO versions 1 to 5, ModifiedFileEntryState).
// microsoft/vscode-copilot-chat's CloudSessionIdStore (cloudSessions.json)
// and CloudTaskOwnership (github.copilot.cloudAgent.ownedTasks), read by
// code search (commit not recorded); at
// 31acd00a86424e2ee6e980e54919cf31fbf88030
// src/extension/chatSessions/vscode-node/copilotCloudSessionsProvider.ts
// (userSelectedRepositories) and
// src/extension/chat/vscode-node/sessionTranscriptService.ts (the
// transcripts). VS Code's authenticationAccessService.ts and
// authenticationUsageService.ts (the account keys, see parser.AuthAccounts). Real files: the two "Export Chat"
// samples of dealenx/copilot-chat-analyzer (Copilot Chat 0.31.3, October
// 2025; e933edbc and 00f44d09), read through parsertest.SharedSamples;
// they show toolCallRounds ids (call_...__vscode-<n>) differing from the
// parts' toolCallId (UUIDs) and pairing one to one in order. No real
// chatSessions/*.jsonl, state.vscdb, settings, cloudSessions.json or
// chatEditingSessions file was available: those tests are synthetic
// fixtures built from the source above, and no VS Code run exists in
// fixtures/roots.
package vscode

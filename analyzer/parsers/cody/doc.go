// Package cody parses Sourcegraph Cody's chat history, model preferences
// and standing permission settings.
//
// Validated against: sourcegraph/cody source at dced3c1d (2025-07-24;
// vscode/src/services/LocalStorageProvider.ts, lib/shared/src/chat/
// transcript/{index,messages}.ts, lib/shared/src/sourcegraph-api/
// completions/types.ts, vscode/src/chat/chat-view/ChatBuilder.ts,
// vscode/src/chat/agentic/ProcessManager.ts, agent/src/global-state/),
// and sourcegraph/jetbrains at 0628dcda (history/state/*.kt,
// HistoryService.kt) for the pre-agent project history; synthetic fixtures
// built from those shapes. No real install: the VS Code extension and the
// JetBrains plugin are not on the registries reachable here (the
// @sourcegraph/cody-* npm packages are libraries that write nothing).
//
// Files:
//
//   - the sourcegraph.cody-ai row of a VS Code or fork
//     User/globalStorage/state.vscdb (read through vscodestate.VSCodeState by the
//     "<editor>/extension-state" parsers; SourceLine is the ItemTable
//     rowid). Its cody-local-chatHistory-v2 member is an
//     AccountKeyedChatHistory: {"<endpoint>-<username>": {chat: {<chat id>:
//     SerializedChatTranscript}}}. Each chat gives "chat: account=<key>
//     [title=<chatTitle>]", then per interaction: the human message's
//     context files as a system row "context files: <uri>, ...", its text
//     as the user row, its tool_result parts as tool_result rows (tool
//     output, never user); the assistant message's text (model = its
//     model), its tool_call parts as tool_use rows with the full arguments
//     string, its processes and subMessages steps (a "tool" step is a
//     tool_use row; a "confirmation" step is "permission request: <title>
//     <content> state=<pending|success|error>"; other steps "step: ..."),
//     and an error as "error: <name>: <message>". The session id is the
//     chat id; every row carries the chat's creation time (the id is
//     Date.toUTCString(), second precision; time_basis inherited). A chat
//     whose id is a UUID (the JetBrains import bug CODY-3538, which the
//     agent migrates) takes lastInteractionTimestamp instead; neither
//     parseable: time_basis none. RecordID "<chat id>:<n>h#<k>" /
//     "<chat id>:<n>a#<k>" (the n-th interaction's human/assistant
//     message, k-th row). No project path is recorded.
//   - cody-model-preferences (same row, and the JetBrains file of that
//     name): DefaultsAndUserPreferencesByEndpoint; each selected and
//     default model is "model preference: endpoint=<e> <selected|defaults>.
//     <usage>=<model>" with Model set, at the store's mtime.
//   - the JetBrains agent's Cody-nodejs/[Data/]JetBrains-globalState/
//     cody-local-chatHistory-v2 and cody-model-preferences
//     (node-localstorage: one file per key holding the JSON value), read
//     as above (SourceLine 1).
//   - cody/settings: the cody.* standing permission settings of the
//     editor's User/settings.json (JSONC): cody.agentic.context.
//     experimentalShell, cody.chat.agenticContext, the experimentalOptions
//     shell allow and block lists (one row per entry; an empty allow list
//     is "[] (every command)"), and cody.mcpServers (name, command and
//     args or url, disabled; env and headers are never read): "permission
//     setting: <key>=<value> (from <file>, file mtime)". The secret
//     cody.experimental.minion.anthropicKey is never read.
//   - cody/legacy-history: the pre-agent JetBrains plugin's
//     <project>/.idea/cody_history.xml (secondary): every chat (an element
//     with internalId and messages, under HistoryState.chats or per
//     AccountData) gives its messages as user (HUMAN) and assistant rows
//     (model from the chat's llm state), at its updatedAt, an ISO local
//     date-time without zone (time_basis local-as-utc); the project is the
//     directory above .idea. Its window is 0: the legacy internalId is not
//     the agent's chat id, so rows pair on session and text alone.
//
// Not read yet: the other keys of the sourcegraph.cody-ai row (endpoint
// history, enrollments, anonymous user id, repository metadata: no
// evidence of use), the globalStorage/sourcegraph.cody-ai/ extension
// storage (collected; no transcript was found in its writer code), and a
// project's .vscode/cody.json custom commands (configuration only).
// Secret storage (access tokens) is never read.
package cody

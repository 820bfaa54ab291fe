// Package twinny reads twinny's state: the rjmacarthy.twinny row of a VS
// Code (or fork) state.vscdb, through vscodestate.VSCodeState by the
// "<editor>/extension-state" parsers (SourceLine the ItemTable rowid).
//
// Validated against: twinnydotdev/twinny source 3.23.31 at 193d14c0
// (src/common/constants/storage.ts, src/common/types.ts,
// src/extension/conversation-history.ts) and the 4.x files stored in the
// search index at 048b0a87 (src/extension/chat/conversation-history.ts,
// turn.ts), 7605bc33 (chat/tool-steps.ts) and the team policy store
// (TEAM_POLICY_STORAGE_KEY); synthetic fixtures. No real install: twinny
// ships only as a VS Code extension, not on a registry reachable here.
//
// Rows:
//
//   - twinny.conversations: {<id>: Conversation {id, title, pinnedTitle,
//     updatedAt (Date.now() at each save), messages}}. Each conversation
//     gives "conversation: <title> [(title set by the user)]" then its
//     messages; messages have no time of their own: every row carries the
//     conversation's updatedAt (time_basis inherited; none without it). A
//     user message's content is the composer's HTML: the user row is its
//     text (<br> a line break, tags dropped, entities unescaped), images
//     attached are counted in a system row, and the prompt a feature
//     recorded for the model (message.prompt) is a system row "prompt
//     sent for this message: ...". Assistant text is an assistant row,
//     OpenAI tool_calls are tool_use rows with the full arguments, tool and
//     function messages tool_result rows. A reply's tool steps
//     (ToolStepView: id, name, args, summary, output, status) give a
//     tool_use row (arguments as twinny kept them, each cut at 2000
//     characters by twinny), "permission decision: denied source=user
//     (Skip)" for a command the user skipped, "permission request: ..."
//     for one still waiting, and a tool_result row (is_error true when
//     failed; output cut at 4000 characters by twinny). RecordID is the
//     message id (or "<conversation>:<index>") with "#<n>", a step's
//     "<step id>#use|#decision|#result".
//   - twinny.active-conversation: read only when its id is not among the
//     saved conversations (a conversation removed or not yet saved), with
//     the note "[active conversation not in twinny.conversations ...]".
//   - twinny.teamPolicy: "permission setting: twinny.teamPolicy url=...
//     providers=... policy=<json> (from <file>, file mtime)".
//   - a workspace row's reviewOwner/reviewRepo: "pull request review
//     repository: <owner>/<repo>".
//
// Never read: twinny.inference-providers (provider apiKeys) and the
// ChatGPT plan session; no secret reaches a row.
//
// Not read yet, each for want of its writer's code here: the standing
// "Always run" grants and the agent-mode and auto-run switches of 4.3.x
// (their state keys are not in the stored source), the agent-changes/
// <id>.json records and the Twinny.log output channel (catalog targets
// agent-changes and log are collected; their record shapes are not in the
// stored source), and the key under which 4.x keeps a reply's tool steps
// is taken as "toolSteps" (the ToolSteps class emits the list to the
// webview, which saves it with the reply; the field name is not in the
// stored files): a different name gives no tool rows, not wrong ones.
package twinny

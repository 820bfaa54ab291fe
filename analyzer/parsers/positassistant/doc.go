// Package positassistant reads Posit Assistant (posit-dev/assistant), the
// coding assistant Posit ships for RStudio and Positron, which keeps one
// folder per conversation under ~/.posit/assistant/workspaces on every OS.
// It is not the Positron IDE's built-in Positron Assistant, whose chats are
// VS Code chatSessions files read by the vscode package.
//
// Evidence: posit-dev/assistant is not public and has no npm package
// (npm view @posit-dev/assistant and posit-assistant: 404), so the layout
// is read from kenn-io/agentsview internal/parser/posit_assistant_provider.go
// and testdata/posit-assistant at 538600744d1b87614d3746d36a0966c1f2ac1cad,
// and the fixture is built from it:
//
//   - workspaces/<workspace>/workspace.json: {path, createdAt}; path is
//     the project folder of every row of the workspace ("default" has
//     none).
//   - workspaces/<workspace>/index.json: {conversations: [{id, timestamp,
//     title, summary}]}. posit-assistant/index gives one system row per
//     entry (a Trace parser); an entry whose folder was not collected says
//     so, the trace of a deleted conversation.
//   - <conversation>/conversation.json (schemaVersion "3"): root {id,
//     title, summary, timestamp (epoch ms), metadata {kind main|subagent,
//     parentTreeId, task, gitBranch, model}} and messages, the tree of
//     nodes {id, parentId, isActive, lmMessageIds, timestamp}; a node not
//     active is a branch left by an edit or a retry.
//     posit-assistant/conversation gives one session row.
//   - <conversation>/lm-messages.jsonl: {id, message} a line, the message
//     a Vercel AI SDK ModelMessage (role user|system|assistant|tool,
//     content a string or parts text, reasoning, image, file, tool-call
//     {toolCallId, toolName, input}, tool-result {toolCallId, toolName,
//     output {type text|json|error-text|error-json|execution-denied,
//     value}}, tool-approval-request, tool-approval-response {approvalId,
//     approved, reason}; providerOptions.providerMetadata.positai
//     {timestamp, modelId}). posit-assistant/lm-messages streams it: a
//     user message is the typed prompt (a user row) in a main
//     conversation and the parent agent's task (a system row) in a
//     subagent's; reasoning, reply, tool_use and tool_result rows
//     (is_error for error-* and execution-denied outputs); the approval
//     request and the decision ("permission decision: approved|denied")
//     as system rows. What happened stays: a message only inactive nodes
//     name, or no node names, keeps its rows and is followed by a system
//     row saying so; a node naming a message the file lacks is an
//     orphan_record problem; a missing or broken conversation.json is
//     named. Times: positai.timestamp (recorded), else the node's
//     timestamp, else the message before (inherited), else none.
//   - <conversation>/subagents/<id>/: the same files for a subagent run,
//     whose parent is metadata.parentTreeId (else the folder above).
//
// Token usage: a message whose positai metadata holds usage
// {inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens} gets a
// system row "token usage: input N, output N, cache read N, cache write N"
// after its rows, naming only the counters present (the fields agentsview
// 538600744 posit_assistant_provider.go reads).
//
// Not read: ui-messages.jsonl (the render log of the same messages; it is
// collected), the
// <MESSAGESUMMARY> bookkeeping tags (kept in the reply's text as written).
package positassistant

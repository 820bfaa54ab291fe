// Package codebuff reads Codebuff chat folders (and those of Freebuff,
// its free flavour, which writes the same layout) under
// ~/.config/manicode on every OS: projects/<project folder's basename>/
// chats/<chat id>/, the chat id being its start time in UTC
// (2026-11-30T09-00-00.000Z).
//
// # codebuff/chat (target "chats")
//
// chat-messages.json, a JSON array read one element at a time (never
// whole); SourceLine is the element's 1-based position and RecordID its
// id ("#<n>" for the second and later rows of one message). run-state.json
// beside it (sessionState.fileContext.cwd, sessionState.mainAgentState.
// agentType) gives the project path and the flavour: an agent type
// naming "free" is Freebuff; a "chat started" system row at the folder's
// time names both. Messages:
//
//   - user {content, blocks}: a user row (what was typed); an image block
//     a system row naming the file.
//   - ai {blocks}: text blocks as assistant rows, textType "reasoning" as
//     thinking; tool {toolName, toolCallId, input, output} a tool_use row
//     and, when it has an output, its tool_result; agent {agentId,
//     agentType, agentName, status, params, initialPrompt, content,
//     blocks} a tool_use row (ToolName "agent:<agent type>"), its own blocks as
//     rows of session <agentId> with ParentSessionID the chat, and its
//     content as the tool_result; plan, ask-user (the questions asked) and
//     mode-divider as system rows.
//   - error {content}: a system row "error: ...".
//
// Message times are RFC 3339 (recorded) or, in older files, a local clock
// time with no date or zone ("03:04 PM"): such rows carry the chat
// folder's start time with time_basis inherited, and one system row per
// file counts them with the first and last clock time as written. An
// unknown variant or block type, and an element that is no object, are
// problems; a message with no text a Skip "no_evidence:empty_message"; a
// cut-off element is a problem and ends the file.
//
// # Validated against
//
// CodebuffAI/codebuff @da0d571 (npm-app/src/credentials.ts CONFIG_DIR,
// npm-app/src/project-files.ts getProjectDataDir and getCurrentChatDir;
// common/src/tools/params/tool/*.ts for the tool names), and the
// chat-messages.json and run-state.json shapes as kenn-io/agentsview
// @538600744 internal/parser/codebuff.go reads them (read, not copied).
// npm codebuff 1.0.685 is a launcher that downloads the binary and needs
// a Codebuff login: not run. Synthetic fixture (testdata/README.md).
//
// # Not read yet
//
// chat-meta.json and log.jsonl in the chat folder are collected, not
// parsed (run-state.json is read for the cwd, the agent type, and, on the
// "chat started" row, the main agent's creditsUsed and contextTokenCount
// as written and the names of the skills its file context offered, as
// agentsview 538600744 codebuff.go reads them); the skills' own text is
// not copied into the row; credentials.json is a secret, not read. A development stack
// (NEXT_PUBLIC_CB_ENVIRONMENT) writes ~/.config/manicode-<env>: not
// collected.
package codebuff

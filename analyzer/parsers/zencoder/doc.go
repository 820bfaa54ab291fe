// Package zencoder reads Zencoder (zencoder.ai), the coding agent of the
// Zencoder VS Code and JetBrains extensions: one JSONL file per session
// under ~/.zencoder/sessions (ZENCODER_DIR moves it; not followed here).
//
// Evidence: Zencoder's agent is closed source and has no command-line
// release (the npm package "zencoder" is an unrelated video-encoding
// library, checked with npm view), so the format is read from
// kenn-io/agentsview internal/parser/zencoder.go and zencoder_test.go at
// 5386007 (the only public description), and the fixture is built from it:
//
//   - line 1, a header: id, chatId, modelId, parentId, creationReason
//     (newChat, directContinuation, summarizedContinuation,
//     summarizationRequest), createdAt, updatedAt, version: one system row;
//     the id is the session of every row, parentId its parent session.
//   - then one message a line, with an optional createdAt and id:
//     system (a string; "Working directory: <path>" names the folder of the
//     rows after it) gives a system row; user content parts of type text
//     whose tag is "" or "user-input" are the typed prompt (a user row),
//     other tags (instructions, system-reminder, todo-reminder) and skill
//     parts are system rows; assistant parts give thinking (reasoning),
//     assistant (text) and tool_use (tool-call: toolCallId, toolName,
//     input) rows; a tool message's tool-result parts give one tool_result
//     each (its untagged content text, isError; a subagent's
//     <session-id> stays in the text), tagged parts in it a system row;
//     finish (reason) and permission (data, the user's decision) give
//     system rows. Any other role or part type is counted, never dropped.
//
// Times: a message's createdAt is recorded; without one the row inherits
// the time of the record before it, else the header's createdAt
// (time_basis inherited), or has none.
package zencoder

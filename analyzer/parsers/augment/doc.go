// Package augment parses Auggie, the Augment Code CLI (catalog agent
// augment).
//
// Evidence read, all under ~/.augment:
//
//   - sessions/<uuid>.json: {sessionId, created, modified, chatHistory[],
//     agentState{modelId}, rootTaskUuid}; each chatHistory entry (its
//     1-based position is the source line) holds an exchange {request_id,
//     model_id, request_message, request_nodes[], response_nodes[],
//     response_text} with completed, finishedAt, changedFiles and
//     isHistorySummary. Request nodes: type 0 text (the typed prompt: user),
//     1 tool_result_node (tool_result, dated start_time_ms + duration_ms,
//     is_error), 2 image, 4 ide_state_node (workspace folder: project_path,
//     no row). Response nodes: type 0 text (assistant, timestamp_ms), 5
//     tool_use (full input_json as tool_input, dated started_at_ms), 8
//     thinking. The request records no time of its own: the user row
//     inherits the exchange's first response time. A result "Tool execution
//     denied: <tool>" (a --permission or toolPermissions deny rule) also
//     gives "permission decision: deny (...)". model_id per exchange gives
//     "model: <id>" and "model: <old> -> <new>" (a --resume with -m appends
//     to the same file); a history summary, changed files and an
//     uncompleted exchange each give a system row. RecordID is request_id
//     with "#<n>" per row of the exchange and "#model", "#decision" for
//     derived rows. A session with parentConversationId is a subagent:
//     ParentSessionID and the "subagent <id> of <parent>" row.
//   - prompt-history.jsonl: {"message": text} lines the interactive TUI
//     appends (no time, no session): secondary user rows, paired on text.
//   - settings.json: toolPermissions (tool, policy, shell pattern), model
//     and the other keys (never token or key values); .auggie.json: last
//     use and session count; task-storage/tasks/<uuid> (a conversation's
//     task list, linked by its description "Root task for conversation
//     <id>") and manifest/manifest (a row only for a task whose file was
//     not collected).
//
// Validated against: Auggie 0.36.0 (npm @augmentcode/auggie 0.36.0, a
// single bundled augment.mjs; source not public), run against the mock's
// stand-in for the Augment API (fixtures/cmd/mockmodel/augment.go) as its
// tenant URL: fixtures/roots/real-agents-5 (basic, resume with -m
// mock-coder-2, edit with save-file, --permission launch-process:deny).
// The prompt history, settings and subagent shapes come from the bundle's
// code (synthetic fixtures); print mode writes none of them.
package augment

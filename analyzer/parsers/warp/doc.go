// Package warp reads the agent mode of Warp, the terminal: its one SQLite
// store, warp.sqlite, per release channel (Linux
// $XDG_STATE_HOME/warp-terminal, macOS the 2BBY89MBSN.dev.warp group
// container's dev.warp.Warp-Stable, Windows %LOCALAPPDATA%\warp\Warp\data;
// a tui/ folder beside it for the TUI front end).
//
// Evidence, read from Warp's own source (github.com/warpdotdev/warp at
// 19548aec6285e82b1a4cde526e7ec7e04513c248: crates/persistence/src/schema.rs,
// crates/persistence/src/model.rs AgentConversationData,
// app/src/persistence/block_list.rs, which stores times as naive UTC) and
// from the protobuf schema of the tasks (github.com/warpdotdev/warp-proto-apis
// apis/multi_agent/v1/task.proto at 00f791620e0c4016e33f298176f7cf785b1026ad),
// with kenn-io/agentsview internal/parser/warp.go at 5386007 for comparison
// (agentsview reads only ai_queries and the usage counters of
// agent_conversations and synthesises tool rows from the counters; here the
// tool calls come from the messages themselves):
//
//   - agent_tasks: one row per task, its task column a warp.multi_agent.v1.Task
//     (id 1, description 2, dependencies 3 {parent_task_id 1}, messages 5,
//     summary 6). Each Message (id 1, task_id 11, request_id 13, timestamp 14)
//     gives one row: user_query (2) a user row, agent_output (3) assistant,
//     agent_reasoning (15) thinking, tool_call (4) tool_use with the tool's
//     oneof name and its arguments, tool_call_result (5) tool_result (the
//     cancel result an error result: the call was not run), web_search (19)
//     and web_fetch (20) tool_use rows, and the rest (system queries the
//     client sent on its own, summaries, to-do updates, the model used,
//     messages from other agents, review comments, artifacts, skills, debug
//     output) system rows; a server_event (6) is an opaque payload the client
//     only round-trips, counted as skipped; a message with none of these is a
//     skipped_record problem. The schema is followed by field number
//     (google.golang.org/protobuf/encoding/protowire); text the schema does
//     not name is rendered with parser.WireStrings. A task with a parent task
//     is a subagent: its rows are the session "<conversation>/<task>" under
//     the conversation as parent.
//   - ai_queries: one row per exchange, input a JSON array whose Query.text is
//     what the person typed: a Secondary user row (start_ts, UTC), dropped
//     where the task's own user_query row says the same within ten minutes.
//     An exchange with no query (a tool step) is counted as skipped.
//   - agent_conversations: one system row per conversation (last_modified_at,
//     the summary, token and tool counters, the reverted action ids, the
//     agent name, the parent conversation of a child agent); the server
//     conversation token is never shown.
//   - commands: the terminal's command history; a command with
//     is_agent_executed true is a system row naming it, its exit code and
//     folder (the tool call itself is the task's row); a command the person
//     ran is counted as skipped, not emitted.
//
// Fixture: built from the schema above (testdata/*.sql; the task blobs are
// encoded by testdata/gen_tasks.go, run with go run), no real store.
package warp

// Package poolside reads the Poolside Agent CLI (`pool`), which writes one
// NDJSON trajectory per session under its state folder: ~/.local/state/poolside
// on Linux, ~/Library/Application Support/poolside on macOS,
// %APPDATA%/poolside on Windows, each with trajectories/trajectory-<type>_<id>.ndjson.
//
// Evidence: the CLI is closed source and not on npm (npm "poolside" is an
// unrelated JIRA/GitHub automation tool, checked with npm view), so the
// format is read from kenn-io/agentsview internal/parser/poolside.go,
// poolside_provider.go and poolside_test.go at
// 538600744d1b87614d3746d36a0966c1f2ac1cad, and the fixture is built from
// them.
//
// poolside/trajectory: one event a line {id, step_id, timestamp (RFC 3339
// with offset, read to UTC), type, <type payload>}: session.start
// (workspace, working_directories: the first is every later row's folder;
// a start prompt) gives a system row; session.input is the typed prompt
// (a user row) and its mode a system row; thought.end a thinking row;
// assistant_message.end an assistant row with the model of its step's
// inference; tool_call.parsed {id, name, args} a tool_use row;
// tool_call.result {id, tool_name, observation, is_error,
// execution_error_kind} a tool_result row (is_error also when an
// execution error kind is named); tool_call.inference.start gives "model:
// <model>" when the model changes (else a skip); session.error and
// session.exit system rows; assistant_message.start, thought.start and
// tool_call.inference.end (token counts) are counted skips; any other type
// is a skipped_record problem. RecordID is the event id; the session id
// the file name without "trajectory-" and ".ndjson".
package poolside

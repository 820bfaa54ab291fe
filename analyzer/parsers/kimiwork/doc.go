// Package kimiwork reads Kimi Work's conversations. Kimi Work is the
// kimi-desktop app's "daimon" runtime; it runs the kimi-code kernel, which
// stores each conversation as a Kimi CLI wire session under the app's
// config folder: kimi-desktop/daimon-share/daimon/runtime/kimi-code/home/
// sessions/<workspace folder>/conv-<id>/wire.jsonl, with each subagent's
// own wire under agents/<agent>/wire.jsonl (Kimi CLI names that folder
// subagents/).
//
// # kimi-work/wire (targets "sessions", "sessions-xdg-data"; wire.jsonl)
//
// Read by parser/format/kimiwire with SubagentDir "agents" (see
// analyzer/parsers/kimicli for the rows, the subagent accounting and the
// sources): the session is the conv-<id> folder, a subagent's is
// <conv>/<agent> with the conversation as parent, and a SubagentEvent the
// subagent's own wire holds is accounted as in_subagent_wire. The work
// directory is read from home/kimi.json when it is collected (Kimi CLI's
// layout; none was seen for Kimi Work, so the rows usually carry none).
// A line in the Kimi Code journal's shape (a top-level type such as
// turn.prompt or context.append_loop_event, no message envelope; the
// runtime is kimi-code, and kenn-io/agentsview 538600744d1b's
// kimi_work_provider_test.go writes such files with "timestamp" seconds)
// is read as kimi-cli/code-wire reads it (kimiwire.ParseCode's rows), in
// the same session: testdata conv-9a8b7c6d.
//
// # Evidence
//
//   - kenn-io/agentsview at 538600744d1b87614d3746d36a0966c1f2ac1cad
//     (internal/parser/types.go: the default directories on macOS, Linux
//     and Windows; kimi_work_provider.go: conv-* conversations,
//     agents/<agent>/wire.jsonl, the auxiliary ctitle-*, sklsum-* and dvlt-*
//     sessions, the wire being byte-identical to Kimi CLI's).
//   - The wire format: MoonshotAI/kimi-cli at 4a550ef (as kimicli).
//   - Not run: kimi-desktop is a desktop app, on no package registry here;
//     the fixture (testdata/home) is built from the sources above.
//
// # Not read, and why
//
//   - The runtime's own sessions (ctitle-* title generation, sklsum-*
//     skill summaries, dvlt-* dev-loop tasks; target "aux-sessions"):
//     collected so an examiner has them, not parsed: they are prompts the
//     runtime writes to the model, not conversations.
package kimiwork

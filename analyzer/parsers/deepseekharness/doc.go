// Package deepseekharness reads DeepSeek Harness (dsh): one event log per
// session, ~/.dsh/sessions/<project or _no-cwd>/<encoded id>/session.jsonl
// or its zstd-compressed session.jsonl.zstd (DSH_HOME moves ~/.dsh; not
// followed here).
//
// Evidence: no source or npm release was found (npm view
// deepseek-harness: 404), so the format is from kenn-io/agentsview
// internal/parser/deepseek_harness.go, deepseek_harness_format.go,
// deepseek_harness_provider.go and deepseek_harness_test.go at 5386007
// (last changed in b85eae5), the only public description; the fixture is
// built from its test fixtures. Line 1 is the header {type: "session",
// version 0, id, createdAt (epoch ms), cwd, parentSession, origin,
// delegationDepth, agentPreset}; each later line an event {type, seq, time
// (epoch ms), data, surfaceOp, ignorable}, or a packed stream record
// ("text-chunks", "tool-call-chunks", ... with seq0, time0).
//
// Rows, all in the header's session (its parentSession the parent):
//
//   - the header: a system row (id, cwd, parent, origin, delegation depth,
//     agent preset); a header of another version is a problem, the events
//     are still read;
//   - user/message: source.kind "user" is the typed prompt (a user row;
//     images named "[image]"); any other kind (a plugin, the harness) a
//     system row "<kind> message (not typed): ...";
//   - assistant/message: reasoning blocks thinking rows, text blocks
//     assistant rows, tool-call blocks tool_use rows (id, name, arguments)
//     with source.model, then the event's usage {inputTokens, outputTokens,
//     cacheReadTokens, cacheWriteTokens, reasoningTokens} (the fields
//     agentsview 538600744 deepseek_harness.go reads) a system row "token
//     usage: input N, output N, cache read N, cache write N, reasoning N"
//     naming only those present; tool/call is a tool_use row too. A
//     call's rows, the block's and the tool/call echo's, carry one
//     identity, RecordID "<session>/call/<call id>": the correlate stage
//     keeps the first (timeline order) and counts the other as a repeat,
//     and two arguments under one call id are both kept and a duplicate_id
//     problem (the parser drops no copy);
//   - tool/result: each tool-result block a tool_result row (its content's
//     text, isError);
//   - a surfaceOp other than "append" (a replace or remove of earlier
//     entries: a rewind or edit) keeps the event's rows and adds a system
//     row "conversation edited: <op>": nothing the edit removed is dropped;
//   - approval/asked, approval/decided, approval/policy, permission/preset,
//     sandbox/mode, plan/mode, goal/change, session/title, compaction/*,
//     subagent/descriptor, command/run, command/done, hook/*, feedback,
//     schedule, agent preset, todo/write, tool-workflow/*, agent inbox and
//     turn/end (a turn not completed) are system rows with their data;
//   - the stream (assistant/chunk and packed chunk records) repeats what
//     assistant/message holds: skips "stream_chunk" (a stream cut before
//     its message leaves only those: the count shows it); turn/step
//     starts, request headers and retries are skips "state_only"; an
//     unknown type is a skipped_record problem, an ignorable one a skip;
//     a line that is not JSON a problem.
//
// RecordID is "<session>/<seq>" ("#<n>" for the n-th row of an event).
// Times: the event's time (epoch ms, UTC); the header's createdAt for the
// header row.
package deepseekharness

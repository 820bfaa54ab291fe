// Package reasonix reads Reasonix (esengine/DeepSeek-Reasonix), a terminal
// coding agent (a Go binary shipped in the npm package "reasonix"), whose
// home is ~/.reasonix (REASONIX_HOME moves it; not followed here).
//
// Evidence: a real run here of reasonix 1.38.11 (npm, linux-x64 binary of
// commit 11f9705f083819f1dc9ad764d8352013a86ebd44) against the loopback
// model fixtures/cmd/mockmodel over OpenAI Chat Completions
// (~/.reasonix/config.toml with one [[providers]] entry of kind "openai"):
// `reasonix run 'Run the shell command ...'` (the shell sandbox refused the
// bash call: no bubblewrap here) and `reasonix run -c --permission-mode
// danger-full-access 'Create the file ...'`; the files it wrote are
// testdata/home/.reasonix (the bolt recovery cache and lock files left
// out). The older JSONL layout is read from kenn-io/agentsview
// internal/parser/reasonix.go at 538600744d1b87614d3746d36a0966c1f2ac1cad
// (synthetic fixture).
//
//   - reasonix/events: projects/<folder>/sessions-v4/<session>/events.frames
//     ("reasonix.session.linear/v4"): a sequence of frames, each "RX4F",
//     a big-endian uint32 compressed length, a uint32 decoded length and
//     one zstd frame holding a JSON record. Records: batch/begin {commitId,
//     operationId, turnId, createdAt} ... batch/event {event {id, seq,
//     kind, payload (base64 JSON)}} ... batch/end {sha256}. A batch's
//     createdAt times its events. Event kinds: message/complete {message
//     {role, id, origin, content, raw_content, createdAt ms,
//     reasoning_content, tool_calls [{id, name, arguments}], tool_call_id,
//     name, tool_run_state}}: a user message of origin "user" is the typed
//     prompt (raw_content; the expanded content, when it differs, a
//     system row), one of another origin ("host": the session-context
//     snapshot Reasonix injects before each turn) a system row; assistant
//     messages give thinking, assistant and tool_use rows; a tool message
//     gives the tool_result, whose is_error and time come from the
//     tool/result event that follows (error, endedAt); session/config gives
//     "model: <ref>"; a turn/end other than completed and an assistant
//     attempt other than begin/commit are system rows; turn/start,
//     tool/call (progress snapshots of a call), tool/start and the batch
//     markers are counted skips; any other kind is a system row with its
//     payload. A frame that is cut, not RX4F or over 64 MiB ends the read
//     with a problem; one that does not decompress is skipped with one; a
//     batch begun and never ended is named. Session id: the folder.
//   - reasonix/transcript: the older <id>.jsonl (sessions/, sessions/<id>/,
//     sessions/subagents/, projects/<p>/sessions/, archive/) of {role,
//     content, reasoning_content, tool_calls [{id, name, arguments}],
//     tool_call_id}, with <id>.jsonl.meta {created_at, updated_at, scope,
//     workspace_root, topic_title, model}: the meta row, then rows at the
//     meta's created_at (inherited; none without it); a subagent's user
//     message is its parent's task (a system row).
//
// Collected, not parsed: manifest.json, storage.identity.json and
// events.offset-index.json (the log's own bookkeeping), the .recovery-cache
// and .query-cache (derived from the log), the .content-v1 store, stats/
// (token usage per request), config.toml. The global .env holds provider
// keys and is never collected.
package reasonix

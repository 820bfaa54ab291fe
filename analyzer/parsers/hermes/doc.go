// Package hermes reads Hermes Agent (Nous Research) files under .hermes,
// .hermes<suffix>, AppData/Local/hermes<suffix> and their profiles/<name>/
// homes, or at the root of a *hermes* Docker or Podman volume (the
// catalog's Volumes roots).
//
// # hermes/state-db (target "state-db")
//
// state.db (hermes_state.py SessionDB; tables from SCHEMA_SQL in
// hermes_state_common.py, SCHEMA_VERSION 30), SQLite with WAL sidecars,
// columns read by name so older schema versions read too:
//
//   - sessions: "session: title; source; model; cwd; profile" at
//     started_at (RecordID "session:<id>"), "session ended: <end_reason>" at
//     ended_at. A source that is a messaging platform (telegram, discord,
//     slack, whatsapp, ...) adds "relayed through <source> chat <chat_id>
//     (<chat_type> <display_name>)" and SessionState Relayed yes (no for
//     cli, tui, acp, api, cron and the like). parent_session_id is the
//     ParentSessionID of the session and its rows; model_config
//     _delegate_from says "subagent <id> of <parent>", _branched_from
//     "branched from" (SessionState.ForkedFrom), _reset_from "reset from",
//     none "continues <parent> (compression or subagent)". ProjectPath cwd.
//   - messages (rowid order; RecordID "msg:<id>"): user rows; assistant
//     reasoning_content / reasoning (thinking), content (assistant) and
//     tool_calls (tool_use, ToolUseID and RecordID the call id, ToolInput
//     the decoded arguments); tool messages (tool_result, RecordID "<call
//     id>#output"); system messages and display_kind "hidden" rows (context
//     the model sees and the person never typed) are system rows. Rows with
//     active = 0 (rewound by /rewind, or compacted = 1) stay, their text
//     prefixed "[rewound] " or "[compacted] ", and one system row per
//     session says how many and gives sessions.rewind_count. An empty
//     message is a Skip; a message whose session row is gone keeps its rows
//     and gives an orphan_record problem.
//   - session_model_usage: "model used: <model> (<provider>): N api
//     call(s), in / out tokens, last seen" at first_seen (Model set): the
//     session's model switches.
//   - state_meta: heartbeat:<id> (recurring prompts: status, interval,
//     fire count, prompt) and keys naming a deletion ("deletion fence: key =
//     value"); other keys are index bookkeeping (Skip "state_only").
//   - conversation_generations: "conversation generation N on <source>
//     <session_key>" (undated), a counter that outlives deleted sessions.
//
// state-snapshots/<id>/state.db, a quick snapshot, is read the same way
// with every row secondary after a row naming the snapshot
// (Spec.Secondary window 1 s: the copies keep their timestamps).
//
// # Secondary sources
//
//   - hermes/session-jsonl: sessions/<id>.jsonl, one message per line as
//     the messages table holds it (role, content, tool_calls, tool_call_id,
//     tool_name, timestamp, reasoning_content): the diverts written when
//     state.db was replaced under a running process; window 1 minute.
//   - hermes/prompt-history: .hermes_history (prompt_toolkit FileHistory,
//     parser.FileHistory): one user row per entry at host-local time
//     (local-as-utc); window 15 hours.
//   - hermes/cron-output: cron/output/<job>/<time>.md: "cron job <job>
//     output: .." as an assistant row at the file name's host-local time
//     (else its mtime); window 1 hour.
//
// # Settings and shares
//
//   - hermes/approvals: config.yaml command_allowlist (one "permission
//     setting: command_allowlist=<pattern>" row per entry; no other key of
//     config.yaml is read, so API keys beside it never are) and the pairing
//     stores pairing/<platform>-approved.json and platforms/pairing/
//     <platform>-approved.json ("permission setting: approved <platform>
//     user <id> (<name>, approved <time>)"), at the file's mtime.
//   - hermes/pastes: pastes/pending.json: "debug share uploaded to
//     https://paste.rs/<id>" per occurrence of a link (debug logs were
//     published), record id "pending.json@<byte offset>": a link listed
//     twice is two rows, none dropped by the parser.
//
// # Validated against
//
// Source: NousResearch/hermes-agent, read through the code index (the
// repository is too large to fetch here): hermes_state_common.py
// @00704d087b7c (SCHEMA_SQL, SCHEMA_VERSION 30, lineage markers, end
// reasons), hermes_state.py @00025f69fcc3, hermes_state_schema.py
// @05649193d351; the heartbeat state_meta layout from the project's
// state.db query notes in the same index. The seed's 6bb377a and
// 8b66a51 (schema 31) are not what was read. Synthetic fixtures (SQLite
// built from testdata/*.sql at test time); no real install (Hermes is on
// PyPI, not reachable here).
//
// # Not read yet
//
//   - The exact deletion-fence keys and the Bot Mode room log of schema 31
//     (from 8b66a51): fences are recognised by a key naming a deletion.
//   - The sessions/<id>.jsonl divert writer was not found in the source
//     read: the lines are read in the messages table's shape.
//   - response_store.db (the API server's response store), the
//     trajectory_samples.jsonl and failed_trajectories.jsonl project files,
//     the desktop app's connections.json (kind secret) and logs: collected,
//     not parsed. .env and auth.json (kind secret): never read.
//   - config.yaml approvals settings other than command_allowlist.
package hermes

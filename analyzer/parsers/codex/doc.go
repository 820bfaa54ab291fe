// Package codex reads OpenAI Codex CLI (and Codex Desktop / IDE extension,
// and the ChatGPT desktop app's Codex mode) files under ~/.codex (or a
// ~/.codex-<name> home). The Codex home's readers live in
// analyzer/parser/format/codexhome, which a Codex fork (open-interpreter)
// runs on its own home; this package adds Codex's Spec names and the
// ChatGPT desktop app's files only ~/.codex holds.
//
// # codex-cli/rollout (target "sessions")
//
// sessions/YYYY/MM/DD/rollout-<local time>-<uuid>.jsonl and
// archived_sessions/, also compressed as .jsonl.zst, and the TypeScript
// CLI's whole-file rollout-*.json ({session, items}). Each line is
// {timestamp, type, payload}:
//
//   - session_meta: the session id (payload.id, or payload.session_id, or
//     payload.thread.sessionId from 0.129) and cwd (ProjectPath). The first
//     is the file's own. It gives "session origin: local (originator=..
//     cli_version=.. source=..)", a SessionState with Origin "local", a
//     "subagent <id> of <parent>" row when source is a spawned subagent and
//     "session forked from: <id>" for forked_from_id. A repeat of the
//     file's own (a resumed rollout) is Skip "state_only:session_meta
//     repeated".
//   - turn_context: "model: <id>" at the first, "model: <old> -> <new>" on
//     each change; "permission mode: approval=<approval_policy>
//     sandbox=<sandbox_policy type>" at the first and on each change; cwd
//     updates ProjectPath.
//   - response_item: message role user is a user row, unless it is context
//     Codex injects (a block wrapped in one XML-style tag such as
//     <environment_context>, <user_instructions>, <skill>, <turn_aborted>,
//     <user_shell_command>, or the "# AGENTS.md instructions for" heading),
//     which is system; developer and system roles are system; assistant
//     output_text is an assistant row; a reasoning summary (or raw
//     reasoning content) is a thinking row (encrypted-only reasoning gives
//     none); function_call, custom_tool_call, local_shell_call,
//     web_search_call and image_generation_call are tool_use rows (ToolInput
//     the decoded arguments; Text the exec_command cmd, the shell command
//     argv joined with spaces, apply_patch's file names, else the path, url,
//     pattern or query); function_call_output and custom_tool_call_output
//     are tool_result rows (the JSON {"output","metadata":{"exit_code"}}
//     form is unwrapped and "exit code: N" appended; IsError from
//     success=false, a non-zero "Process exited with code N" / "Exit code: N"
//     / metadata exit code, or a rejection). An output "... rejected by
//     user" also gives "permission decision: denied source=user" with the
//     call's ToolUseID.
//   - event_msg: the twins of the response items are not emitted twice.
//     The rule is decided per session in a first pass over the stream (the
//     file is opened and read twice, never held whole; the first pass keeps
//     only hashes of the prompt texts, the call ids and a few flags):
//     user prompts: when the session has user_message events (or 0.148+
//     item_completed user messages) those are the user rows (they hold what
//     was typed, plus local image paths); a user-role response item
//     repeating one of them (by text, whole or any one part) is Skip
//     "duplicate:user_message" and one matching none is system. When there
//     are no such events (0.153+ files and the oldest ones) the
//     non-injected user-role response items are the user rows. Assistant
//     replies and reasoning: the response items are the rows when the
//     session has any; agent_message and agent_reasoning (and
//     item_completed agent_message/reasoning) are used only in a session
//     without them (else Skip "duplicate:response_item"). Tool calls:
//     item_completed CommandExecution is used only when no response item
//     has its call id. task_started with turn_attribution (0.163+) gives
//     "turn trigger: <trigger>" (the composer, exec, a paired phone, a
//     scheduled task, the guardian reviewer; "(parent turn ..)" and
//     "(initiating agent ..)" when recorded). turn_aborted,
//     thread_rolled_back, thread_name_updated, review mode and error events
//     are system rows; exec_approval_request, apply_patch_approval_request
//     and request_permissions (not persisted by current builds) give
//     "permission decision: ask source=<type>"; token_count, task_complete
//     and the *_end twins give no row (Skip "no_evidence:event_msg/<type>"),
//     thread_settings_applied is shown by the turn_context rows (Skip
//     "state_only:thread_settings_applied").
//   - compacted and compaction items: "compacted: <summary>".
//   - world_state, token_usage_record, inter_agent_communication: no row.
//   - Legacy (mid-2025): a bare first line {id, timestamp, instructions},
//     {"record_type":"state"} markers, and bare Responses items with no
//     time: those rows get the session start time with TimeInherited.
//
// Every line ends as rows (SourceLine its line), a Skip naming why, or a
// problem. Record ids name the record in its session: "<session>/<id>"
// where Codex gave one (the call id of a call, "#output" for its output,
// "#decision" for a rejection; the item id of an item_completed item; the
// id of a response item), else "<session>/<kind>:<n>", the n-th record of
// that kind (response_item.<type>, event_msg.<type>, turn_context,
// compacted) of the session, counted from its session_meta; derived rows
// add "#origin", "#subagent", "#forked", "#model", "#permission",
// "#trigger". The same record gets the same id in its own rollout and in
// a fork's replay of it.
//
// Forks (session_meta.forked_from_id; openai/codex #21025, #35003, and
// the fork replay PRs of kenn-io/agentsview #657, perplexityai/numbat
// #10): a fork rollout replays its parent's lines, re-stamped to the fork
// time, after its own session_meta: the parent's session_meta, then its
// records (a fork of a fork replays the grandparent's inside). The
// replayed rows carry the parent's session (or the grandparent's),
// Replayed, and the ids the parent's own rollout gives them, so the
// engine writes each once, in the parent; without the parent's file they
// stand for it, timed at the replayed turn's start (the UUIDv7 time of
// its turn id, else the parent's session_meta timestamp) as inherited,
// never at the copy time. The replay ends at a turn id minted at or after
// the fork's creation (the UUIDv7 time of its id, else its session_meta
// timestamp), at an event naming the fork's thread_id, at a repeat of the
// fork's session_meta, or, in a file without UUIDv7 turn ids, at a record
// stamped more than 2 s after the replay began (the replay is one burst;
// a heuristic used only there). The fork's own rows carry the parent as
// ParentSessionID, its state ForkedFrom and ParentSessionID. A spawned
// subagent's rollout that repeats its parent's session_meta without
// forked_from_id (0.142-0.145, chattymin/PokeTokenBar #137) gives that
// record's rows, replayed, in the parent's session, and nothing more.
//
// Subagents (source {subagent: {thread_spawn: {parent_thread_id}}}, or
// review/compact/other): rows carry the subagent's own session and the
// parent as ParentSessionID (and in its SessionState); a prompt in a
// subagent's session is the system row "subagent task: <text>" (the
// parent's model or Codex wrote it), never user.
//
// Times come from the records (UTC), never from the file name, whose time
// and YYYY/MM/DD folders are local. A line cut by a killed writer with the
// next record glued on gives the whole record and a Problem; other bad
// lines are Problems and the parse goes on.
//
// # codex-cli/history (target "history")
//
// history.jsonl {session_id, ts (unix seconds), text}: one secondary user
// row per line.
//
// # codex-cli/session-index (target "session-index")
//
// session_index.jsonl {id, thread_name, updated_at} (openai/codex@3186b17
// codex-rs/core/src/rollout/session_index.rs: appended each time a thread
// is named, the newest line for an id winning; updated_at is RFC 3339 UTC
// or "unknown"): one secondary system row "thread name: <name>" per line,
// at updated_at (time_basis none when it is not a time), pairing with the
// rollout's thread_name_updated row. Like history.jsonl and the state DB
// it only names threads (Spec.Trace): a thread it names whose rollout is
// gone reads recovered trace in sessions.jsonl.
//
// # codex-cli/config (target "config")
//
// config.toml: "permission setting: <key>=<value> (from config.toml, file
// mtime)" for approval_policy, sandbox_mode, approvals_reviewer,
// sandbox_workspace_write.*, projects.<path>.trust_level and the same keys
// under profiles.<name>; "model setting: <model> (from config.toml, file
// mtime)". No other key is read, so env values, headers and keys are never
// printed. rules/*.rules: one "permission setting: rule=<line>" row per
// non-comment line. Rows carry the file's mtime (TimeFileMTime).
//
// # codex-cli/state-db (target "state-db")
//
// state_<N>.sqlite and db-backups/*/state_<N>.sqlite, a secondary source
// (see parse_state_db.go): per thread a "thread record: source=..
// originator=.. cli_version=.. model=.. approval=.. sandbox=..
// rollout=<path>" row and the first_user_message as a user row at the
// thread's creation time, "thread archived" at archived_at, "subagent
// <child> of <parent>" from thread_spawn_edges (ParentSessionID and the
// child's state), "remote control: enrolled server .." per
// remote_control_enrollments row, and "permission decision: denied
// source=guardian_review .." per guardian_review_feedback record. The
// store and its WAL are carved (analyzer/parser/sqlitecarve): a thread
// record deleted from threads gives back the rows a live one gives, each
// marked recovered with its provenance, after "recovered record: thread
// <id> (<where>)" (record id <id>#recovered); an older version of a live
// thread is a recovered_copy skip; recovered _sqlx_migrations,
// backfill_state and sqlite_schema records are no_evidence skips. The
// session of a recovered thread stays a trace (the thread table only
// names sessions).
//
// # codex-cli/thread-history (target "state-db")
//
// thread_history_<N>.sqlite thread_turns and thread_items, a secondary
// source (see parse_thread_history.go): the turns and items the thread's
// collected rollout does not hold, as rows; those it holds are Skip
// "duplicate:rollout".
//
// # codex-cli/logs-db (target "state-db")
//
// logs_<N>.sqlite (see parse_logs_db.go): ExecApproval / PatchApproval
// submissions and codex.tool_decision events as "permission decision:"
// rows, /feedback reports as "session synced: /feedback report sent to
// Sentry" with the thread's state synced yes (every row of a request's
// span carries the request's one record id; the correlate stage keeps the
// first).
//
// # codex-cli/memory-summary (target "memories")
//
// memories/rollout_summaries/*.md: one "memory summary: <text>" row per
// thread (see parse_desktop.go).
//
// # codex-cli/global-state and codex-cli/automation (target "config")
//
// The ChatGPT desktop app's .codex-global-state.json (prompt history,
// standing thread permissions, thread descriptions, thread references; a
// secondary source) and automations/*/automation.toml (one "scheduled
// task:" row each); see parse_desktop.go. Codex only, not for forks.
//
// # Evidence
//
//   - Real samples (../shared/agent-samples/codex, SOURCES.md there):
//     codex_exec 0.89.0 (tomjnsn/agentlogs crud.jsonl @5f25efc3), 0.93.0
//     (images.jsonl @0ea557d5), Codex Desktop 0.104.0-alpha.1 (madshn/localpush
//     @1a5e201e and @f0a54fdf, text redacted by its owner).
//   - Real agent run here: Codex CLI 0.171.0 (codex exec) against a
//     scripted loopback model, fixtures/roots/real-agents (basic, resume
//     with a model change, apply_patch edit, read-only sandbox failure, API
//     error retry, killed mid-turn): its rollouts (turn triggers, record
//     ids, item_completed ids), state_5.sqlite (threads, and the
//     remote_control_enrollments and guardian_review_feedback schemas),
//     thread_history_1.sqlite (6 turns, 15 items, all held by the rollouts)
//     and logs_2.sqlite (the schema; no approval or feedback row).
//   - Source: openai/codex codex-rs/rollout/src/policy.rs @0136a731d73e
//     (which event_msg kinds are persisted), codex-rs/core/src/rollout/
//     recorder.rs @035416bf (RolloutLine, SessionMeta), codex-rs/core
//     session record_initial_history (a fork persists the parent's rollout
//     items as they are), codex-rs/state/migrations/0001_threads.sql
//     @864b3ff5194d, thread_history_migrations/0001_thread_history.sql
//     @02b713cf8100, app-server-protocol v2 ThreadItem @fdf6994d0fdf,
//     state/src/log_db.rs @00a0498eea1c, the otel tool_decision event and
//     the session loop's Submission log, app-server upload_feedback,
//     ext/guardian-reviewer/src/feedback.rs and migration 60 @30bdfec59ddf,
//     memories write_rollout_summary_for_thread; the format notes in
//     ../shared/research/agent-formats.md section 2.
//   - Synthetic (testdata/): legacy record_type format, 0.148 item_completed
//     form, moved session ids, subagent/fork meta, a fork and its parent
//     (testdata/fork), TypeScript .json, config and rules, the thread
//     history, logs, remote control, guardian, global state, memory
//     summary and automation fixtures (no real file of these was
//     available; the desktop app's global state and automations from the
//     keys public tools read and write, the app being closed source).
//
// # Not read, with the reason
//
//   - .codex-global-state.json: deleted-thread markers and remote control
//     flags under their own keys: no public source names those keys (the
//     thread references the file keeps are read, and outlive a deleted
//     thread); goals_1.sqlite, queue_1.sqlite, memories_1.sqlite: not in
//     the seed's files read.
//   - log/codex-tui.log (target "logs"), auth.json (secret), AGENTS.md,
//     prompts and skills (target "instructions"): diagnostics, a key and
//     instructions, not records of activity; not in the seed's files read.
package codex

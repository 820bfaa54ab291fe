// Package codex reads OpenAI Codex CLI (and Codex Desktop / IDE extension)
// files under ~/.codex (or a ~/.codex-<name> home).
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
//     is canonical; a resumed or forked rollout repeats it and a repeat
//     starts no new session. It gives "session origin: local (originator=..
//     cli_version=.. source=..)", a SessionState with Origin "local", a
//     "subagent <id> of <parent>" row when source is a spawned subagent and
//     "session forked from: <id>" for forked_from_id.
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
//     The rule is decided per file in a first pass over the stream (the
//     file is opened and read twice, never held whole; the first pass keeps
//     only hashes of the prompt texts, the call ids and a few flags):
//     user prompts: when the file has user_message events (or 0.148+
//     item_completed user messages) those are the user rows (they hold what
//     was typed, plus local image paths); a user-role response item
//     repeating one of them (by text, whole or any one part) is skipped and
//     one matching none is system. When there are no such events (0.153+
//     files and the oldest ones) the non-injected user-role response items
//     are the user rows. Assistant replies and reasoning: the response
//     items are the rows when the file has any; agent_message and
//     agent_reasoning (and item_completed agent_message/reasoning) are used
//     only in a file without them. Tool calls: item_completed
//     CommandExecution is used only when no response item has its call id.
//     turn_aborted, thread_rolled_back, thread_name_updated, review mode and
//     error events are system rows; exec_approval_request,
//     apply_patch_approval_request and request_permissions (not persisted by
//     current builds) give "permission decision: ask source=<type>";
//     token_count, task_started/complete and the *_end twins give no row.
//   - compacted and compaction items: "compacted: <summary>".
//   - world_state, token_usage_record, inter_agent_communication: no row.
//   - Legacy (mid-2025): a bare first line {id, timestamp, instructions},
//     {"record_type":"state"} markers, and bare Responses items with no
//     time: those rows get the session start time with TimeInherited.
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
// state_<N>.sqlite (and db-backups/*/state_<N>.sqlite) threads table, a
// secondary source: per thread a "thread record: source=.. originator=..
// cli_version=.. model=.. approval=.. sandbox=.. rollout=<path>" system
// row and the first_user_message as a user row at the thread's creation
// time, "thread archived" at archived_at, and "subagent <child> of
// <parent>" from thread_spawn_edges; SourceLine is the rowid. Columns are
// read by name (see parse_state_db.go for the schema history).
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
//     error retry, killed mid-turn).
//   - Source: openai/codex codex-rs/rollout/src/policy.rs @0136a731d73e
//     (which event_msg kinds are persisted: ExecApprovalRequest is not;
//     item_completed only for Plan/Sleep), codex-rs/core/src/rollout/
//     recorder.rs @035416bf (RolloutLine, SessionMeta), and the format
//     notes in ../shared/research/agent-formats.md section 2; the threads
//     table from codex-rs/state/migrations/0001_threads.sql @864b3ff5194d
//     and the 0.171.0 database the real agent wrote in the fixture.
//   - Synthetic (testdata/): legacy record_type format, 0.148 item_completed
//     form, moved session ids, subagent/fork meta, TypeScript .json, config
//     and rules (no real file of these was available).
package codex

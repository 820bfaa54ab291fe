// Package openinterpreter reads Open Interpreter's files. The current
// Open Interpreter (the "interpreter" terminal agent) is a fork of OpenAI
// Codex CLI that keeps Codex's stores under ~/.openinterpreter; the
// retired Python tool kept its conversations under the platform's
// open-interpreter data folder.
//
// # Codex's readers (parser/format/codexhome)
//
// open-interpreter/rollout, /history, /config, /state-db,
// /thread-history, /logs-db and /memory-summary are the codex-cli parsers
// (see package codex for the rows, record ids, forks, subagents and
// accounting) given the fork's agent name and home folder:
// sessions/**/rollout-*.jsonl (also .jsonl.zst) and archived_sessions/;
// history.jsonl (secondary, Codex's declared window of ten minutes);
// config.toml and rules/*.rules (standing permission settings, named
// relative to .openinterpreter); state_<N>.sqlite and
// db-backups/*/state_<N>.sqlite threads (secondary, Codex's window of one
// hour); thread_history_<N>.sqlite (the turns and items its rollouts under
// .openinterpreter do not hold, secondary); logs_<N>.sqlite (approvals and
// /feedback reports); memories/rollout_summaries/*.md. The actions table is
// Codex's. The ChatGPT desktop app's files (.codex-global-state.json,
// automations/) are Codex's alone: the fork has no parser for them.
//
// # open-interpreter/imports (target "imports")
//
// external_agent_session_imports.json, the ledger of /import: {"records":
// [{source_path, content_sha256, imported_thread_id, imported_at (unix s),
// source_modified_at}]}: one system row per record in the imported
// thread's session, at imported_at, "session imported from <Claude Code|
// Cursor>: <source path> (content sha256 .., source modified ..); the
// imported thread's record times are the import time". SourceLine is the
// record's 1-based position; a record without a path or thread id is a
// skipped_record problem.
//
// # open-interpreter/legacy-conversation (target "legacy-conversations")
//
// The Python tool's conversations/<first words>__<%B_%d_%Y_%H-%M-%S>.json:
// a JSON array of LMC messages. role user/assistant type message give user
// and assistant rows; assistant code is a tool_use "execute" (ToolInput
// {language, code}, ToolUseID the message's position) and the computer
// console output after it its tool_result; a stored confirmation is
// "permission decision: ask source=confirmation"; images and files are a
// system row naming their format and size, never their bytes. Messages
// record no time: their rows are undated (TimeNone), and one system row
// "conversation started" carries the file name's host-local time as
// local-as-utc.
//
// # Validated against
//
//   - Source: openinterpreter/openinterpreter @5b07159c4779 (release 0.0.40,
//     2026-08-19): codex-rs/utils/home-dir (INTERPRETER_HOME, default
//     ~/.openinterpreter), codex-rs/config/src/loader (.openinterpreter
//     project folder), codex-rs/external-agent-sessions/src/ledger.rs (the
//     import ledger), codex-rs/state (threads and thread_history tables,
//     unchanged from Codex). The seed's 2767e5f and ac1fcc8 are not in the
//     snapshot read here.
//   - Source: openinterpreter/open-interpreter @073636f89f1a (the Python
//     tool): interpreter/core/core.py (conversation file name and dump),
//     interpreter/core/respond.py (LMC message kinds).
//   - Synthetic fixtures in testdata/ built from those shapes; no real
//     install (the fork ships from its own installer, not npm).
//
// # Not read, with the reason
//
//   - The legacy Python tool's profiles/*.yaml|py (kind secret, may hold an
//     API key): not read.
package openinterpreter

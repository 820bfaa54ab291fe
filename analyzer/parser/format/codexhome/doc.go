// Package codexhome reads the Codex home: the rollouts under sessions/ and
// archived_sessions/ (JSON Lines, .jsonl.zst, the TypeScript CLI's .json),
// history.jsonl, config.toml and rules/*.rules, state_<N>.sqlite,
// thread_history_<N>.sqlite, logs_<N>.sqlite and
// memories/rollout_summaries/*.md that OpenAI Codex CLI writes under
// ~/.codex and that its forks write under their own home
// (open-interpreter under ~/.openinterpreter). Parsers(Flavor) gives the
// readers under one agent's name and home folder; Actions is Codex's tool
// table. The ChatGPT desktop app's files that only ~/.codex holds
// (.codex-global-state.json, automations/) stay in analyzer/parsers/codex.
//
// Rows, record ids, fork and subagent ownership, accounting and sources
// (openai/codex at the commits named there) are listed in
// analyzer/parsers/codex/doc.go; the fork's evidence in
// analyzer/parsers/openinterpreter/doc.go.
package codexhome

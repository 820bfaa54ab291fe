// Package traex reads TraeX (TRAE CLI 2.0, ByteDance): a closed-source
// fork of codex-rs that writes Codex's rollout JSON Lines under
// ~/.trae/cli/sessions/<yyyy>/<mm>/<dd>/rollout-*.jsonl, and moves an
// archived one (`traex archive <id>`) to ~/.trae/cli/archived_sessions/,
// as `codex archive` does. It is Codex's format, so the rows come from
// Codex's readers on the fork's paths (parser/format/codexhome, as
// open-interpreter does) under the agent name traex; the Trae IDE is the
// separate catalog agent trae.
//
// Evidence: TRAE CLI is closed source with no npm release (npm view traex:
// 404), so its paths and format are from kenn-io/agentsview
// internal/parser/types.go (AgentTraeX: .trae/cli/sessions and
// .trae/cli/archived_sessions), traex.go and traex_test.go at 5386007,
// which read it with the Codex parser byte for byte; the fixture
// (testdata/) is a Codex rollout under TraeX's paths.
//
// Read: the rollouts only (traex/rollout), every row kind Codex's reader
// gives: typed prompts (the user_message event, its response_item copy
// counted as a duplicate), reasoning, tool calls and results, replies,
// model and permission-mode changes; a cut line is a problem. agentsview
// notes SQLite stores TRAE CLI keeps in ~/.trae/cli: their names and
// tables are not known, so they are collected (target state-db) and
// inventoried, not read. Codex's history.jsonl, config.toml, state and
// memories readers are not claimed for TraeX: nothing shows it writes
// those files.
package traex

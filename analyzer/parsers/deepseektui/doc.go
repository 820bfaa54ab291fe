// Package deepseektui reads DeepSeek TUI, now CodeWhale
// (github.com/Hmbown/CodeWhale, npm deepseek-tui), the Rust terminal agent:
// one JSON document per session at ~/.codewhale/sessions/<uuid>.json (the
// legacy ~/.deepseek/sessions too), and beside it
// sessions/<uuid>/approval_receipts.jsonl, the approval log.
//
// Evidence, read from the agent's own source (Hmbown/CodeWhale at
// 75dca2cfb: crates/tui/src/session_manager.rs SavedSession and
// SessionMetadata; crates/core/src/request.rs Message and ContentBlock;
// crates/tui/src/approval_log.rs ApprovalReceipt; crates/tui/src/artifacts.rs
// the two session folders), with kenn-io/agentsview
// internal/parser/deepseek_tui.go at 5386007 for comparison:
//
//   - a session: schema_version, metadata (id, title, created_at,
//     updated_at, message_count, total_tokens, model, model_provider,
//     workspace, mode, cost, parent_session_id for a fork or a subagent,
//     forked_from_message_count, archived, spawn_depth), messages, journal,
//     leaf_id, system_prompt. The metadata is one system row; the system
//     prompt one system row; each message, read one at a time from the
//     array (the file is never held whole), gives a user row per text block
//     of a user message, thinking, assistant, tool_use (tool_use and
//     server_tool_use: id, name, input) and tool_result (tool_result,
//     tool_search_tool_result, code_execution_tool_result: tool_use_id,
//     content, is_error) rows, and a system row for an image. An
//     assistant_interrupted message is an assistant row marked so. A journal
//     is counted (not read), as is any other member, role or block type.
//   - approval_receipts.jsonl: asked (approval_id, tool_call_id, tool_name,
//     created_at) and decided (outcome approved_once, denied, cancelled,
//     unavailable or retry_with_policy with its policy) receipts: one system
//     row each, the permission decision, joined to its call by tool_use_id.
//
// Times: messages carry none; their rows take metadata.created_at, time_basis
// inherited (a message "timestamp", which agentsview reads, is kept as
// recorded when present). Receipts carry their own created_at.
//
// Fixture: built from the source above (testdata/home), no real run: the npm
// package deepseek-tui 0.8.47 is only a deprecation notice (its binary comes
// from GitHub releases, not reachable here).
package deepseektui

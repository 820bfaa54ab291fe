// Package cortex reads Snowflake Cortex Code, the coding agent CLI
// (cortex): one session per conversation under
// ~/.snowflake/cortex/conversations, as <uuid>.json (session metadata and,
// in older releases, the history inline), <uuid>.history.jsonl (the
// history, one message a line) and <uuid>.back.<n>.json backups of the
// session file.
//
// Evidence: Cortex Code is closed source and installed by Snowflake's own
// installer (not npm; PyPI holds only cortex-code-agent-sdk, a client), so
// the format is read from kenn-io/agentsview internal/parser/cortex.go and
// cortex_test.go at 5386007, and the fixture is built from it:
//
//   - <uuid>.json: session_id, title, connection_name, working_directory,
//     git_root, git_branch, created_at, last_updated, history_length,
//     session_type, permission_cache (tool to decision: one system row per
//     entry, a standing permission decision) and history. The metadata is
//     one system row; the members are read one at a time and history one
//     message at a time (the file is never held whole).
//   - a message: role, id, content blocks, user_sent_time. A user text
//     block is the typed prompt (a user row) unless internalOnly, marked
//     is_user_prompt false, or a <system-reminder>: then a system row. An
//     assistant text block is an assistant row (internalOnly: a system row);
//     tool_use {tool_use_id, name, input} a tool_use row; tool_result {name,
//     tool_use_id, content, status} a tool_result row (status error sets
//     is_error); thinking {text} (or an Anthropic-style {thinking,
//     signature}) a thinking row, one with no text a Skip
//     "no_evidence:empty_thinking" (agentsview 5386007 drops thinking
//     blocks without a word). Other roles and block types are counted.
//   - a backup's rows carry the same record ids as the live file's, marked
//     replayed, so the live copy wins an identity merge and a message only
//     the backup still holds stays.
//
// Times: user_sent_time is recorded; other messages inherit the time of the
// message before them, else the session's created_at when it was read
// first, else have none.
package cortex

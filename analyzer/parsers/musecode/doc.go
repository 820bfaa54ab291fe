// Package musecode reads Muse Code's session logs, TUI prompt history and
// trusted projects.
//
// Validated against: the seed's description only (shipped binary 1.4.2
// strings, vendor skills and a Linux real install, October 2026): Muse
// Code's source is not public and no release is on a registry reachable
// here, so the event schema (field names of prompts, replies, tool calls
// and results, approvals) is not confirmed. Synthetic fixtures.
//
// What is read, and how far:
//
//   - muse-code/sessions: sessions/YYYY/MM/DD/<id>/session.jsonl and each
//     subagent's subagent/<id>/session.jsonl. Each event envelope is one
//     system row at its recorded_at (RFC 3339 with microseconds, or epoch
//     seconds, milliseconds or microseconds), "event <kind>: <key>=<json>
//     ..." with every field but recorded_at, kind from type, kind, event or
//     name; call_id becomes the tool_use_id (so --match pairs a call with
//     its result) and an id or event_id field the record id. Session =
//     the directory's id; a subagent's rows carry ParentSessionID (the
//     parent directory's id) and open with "subagent <id> of <parent>".
//     No event is typed user, assistant, tool or permission decision on a
//     guess: typing them needs the envelope schema.
//   - muse-code/tui-history: tui-history.jsonl, each line a JSON string or
//     an object with text|prompt|input|content|display|entry|value|message:
//     a user row, secondary, no time and no session; another shape is a
//     skipped_record problem.
//   - muse-code/trust: .config/muse/trust.json: each leaf is "permission
//     setting: trust.<key path>=<value> (from <file>, file mtime)".
//
// Not read yet: the turn typing above (the seed's user, assistant, tool
// call and result rows joined on call_id, approval requests and decisions,
// a subagent's project path and branch from its parent log) waits for the
// envelope schema; the approval reviewer's approval-review/*.jsonl
// (synthetic clock), tool-outputs/ and the SQLite indexes (seed: not read),
// and the other config files under .config/muse.
package musecode

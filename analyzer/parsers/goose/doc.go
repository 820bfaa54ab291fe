// Package goose reads the files of goose (Block, now aaif-goose).
//
// Evidence: the formats were learned from aaif-goose/goose source:
// crates/goose/src/session/session_manager.rs at
// 017176d06077b119ade382d3bb710e56c8c04e90 (schema version 17: create_schema,
// the migrations, insert_message, MILLISECOND_TIMESTAMP_THRESHOLD),
// crates/goose/src/conversation/message.rs at
// 893b3e5fe21a3b9f6229b69aeef44144f67a5cc8 (MessageContent, MessageMetadata),
// block/goose crates/goose/src/session/legacy.rs at
// 0fc5e54062be2712f705269265e928c17bceee83, config/permission.rs at
// 1565ccfe7f1ccacb57737d93e946b1ce2b962a66, scheduler/common.rs at
// df1f0bfafcf5052278e3b88813dacf9e335b498f, goose-roaming trust.rs
// (TrustBook) and the providers' RequestLog (llm_request.<n>.jsonl), and
// agents/tool_execution.rs (DECLINED_RESPONSE); the state machine's
// approval (agents/state_machine/ops_tool_approval.rs TOOL_EXECUTABLE_KEY
// "goose.executable" patched onto a toolRequest's "_meta", and the
// toolConfirmationResponse action) and the messages schema comment that
// migration 7 backfills message_id as 'msg_' || session_id || '_' || id,
// from the code index versions of those files. The quirks are those of
// aaif-goose/goose#2529 and #1946 and of vshulcz/deja-vu#2066. All
// fixtures are synthetic; no real goose run was available.
//
// # goose/sessions-db (target "sessions-db", sessions.db)
//
// sessions (one row per session, SourceLine its rowid, at created_at, a
// UTC CURRENT_TIMESTAMP): "session name: <name>" (description in old
// schemas), "session type: <type>[ schedule_id=<id>]" for a type other
// than user, "subagent <id> of <parent>" (parent_session_id),
// "permission mode: <goose_mode>" (auto, approve, smart_approve, chat),
// "session archived" at archived_at; and a SessionState whose Relayed is
// "yes" for a gateway session (relayed through the gateway's bot) and
// "no" otherwise. working_dir is the ProjectPath; model_config_json
// model_name with provider_name gives Model "<provider>/<model>" and one
// "model: <id>" row at the session's first assistant message.
//
// messages (SourceLine the rowid), ordered by created_timestamp: epoch
// seconds, or milliseconds above 10^10 as goose itself reads them.
// content_json items: text is a user row (role user, visible to both user
// and agent), an assistant row, "subagent task: <text>" in a sub-agent
// session (the prompt the parent agent wrote; the sub-agent's rows carry
// ParentSessionID and its SessionState the parent), or "agent-only
// message: <text>" when metadata userVisible is false (compaction
// summaries and notes goose gives the model only);
// thinking (and the legacy reasoning) is a thinking row, redactedThinking
// "[redacted thinking]"; toolRequest and frontendToolRequest are tool_use
// rows (ToolUseID the id, ToolInput the arguments, Text the command, path,
// URL, pattern or query; a text editor's path); toolResponse is a
// tool_result row (the text items of its value list or CallToolResult
// content; IsError from status "error" or isError), and one holding the
// DECLINED_RESPONSE also gives "permission decision: denied source=user";
// toolConfirmationRequest and actionRequired toolConfirmation give
// "permission request: <tool>[ (<prompt>)]" with the call's ToolUseID;
// an actionRequired toolConfirmationResponse gives "permission decision:
// <allowed once|allowed always|denied once|denied always|cancelled>
// source=user"; a toolRequest whose _meta holds goose.executable gives
// "permission decision: allowed (goose.executable=true)" or "permission
// decision: not allowed to run (goose.executable=false)";
// image, systemNotification, contextLengthExceeded,
// summarizationRequested, conversationCompacted and the elicitation
// actions are system rows.
//
// Identity: a message's item i gives RecordID "<message_id>#<i>" (a
// derived row "#<i>#decision" or "#<i>#executable"); session rows
// "<id>#name", "#type", "#subagent", "#mode", "#archived". The "model:"
// row carries none. A message or session row that gives no row is a skip.
//
// The legacy sessions/*.jsonl files collected beside sessions.db (goose
// 1.10 imports them once and leaves them) are read whole as a secondary
// source, with their own SourceFile (Spec.Secondary: 1 s, the import keeps
// each message's created second): the engine drops the rows that repeat a
// database row of the same session and keeps the rest, marked secondary: a
// turn the database lacks (issue 12: the file was skipped whole), or a
// session deleted after the import, whose sessions.jsonl recovered then
// reads partial or yes. The imported copies' message_id is the
// database's own (migration 7), so a file's rows rarely share its ids.
//
// Carving: sessions.db and its WAL are carved (analyzer/parser/sqlitecarve).
// A sessions or messages record deleted from the database (a removed
// session: its messages, then its row) gives back the rows a live record
// gives, under the same ids, each marked recovered with its provenance
// after "recovered record: session <id> (<where>)" or "... message
// <message_id> (...)" (record id "<id>#recovered"); a message whose
// rowid (messages.id, an AUTOINCREMENT key) the freeblock header
// overwrote is partial, its message_id intact. A recovered record with a
// live id or rowid is an older version of it (recovered_copy skip);
// recovered schema_version and sqlite_sequence records are no_evidence
// skips. A session known only from recovered records reads recovered
// yes, a live one with recovered messages partial.
//
// # goose/sessions (target "sessions", *.jsonl)
//
// A legacy session file read on its own, only when no sessions.db was
// collected in the same folder (else see above); RecordID the message id
// when the line has one. Line 1 is the metadata
// {working_dir, description, schedule_id, ...}, read as a message when it
// is one; its "session name:" row takes the first message's time
// (inherited). Then one Message per line {role, created (epoch seconds),
// content[], metadata?}, emitted as above. A blank line is skipped; a line
// that is not JSON (a cut last record, #2529) is a problem and the rest is
// kept; SourceLine is the line number.
//
// # goose/llm-requests (target "llm-requests", llm_request.*.jsonl)
//
// A secondary source (the last 10 provider calls): line 1
// {model_config, input[, session_id]} gives "llm request: model=<name>"
// and the request's last user message as a user row; an {"error"} line
// gives "llm request error: <error>"; a response chunk is a skip. The file
// records no time, so the rows carry its mtime; Spec.Secondary pairs its
// prompt with the transcript's within 600 s (the seed), in the session the
// request names.
//
// # goose/history (target "history", history.txt)
//
// The CLI's rustyline history ("#V2" header, "\n" and "\\" escaped): one
// secondary, undated user row per entry.
//
// # goose/settings (target "settings")
//
// permission.yaml: one "permission setting: <category>.<level>=<tool>
// (from <file>, file mtime)" row per entry (categories user and
// smart_approve; levels always_allow, ask_before, never_allow).
// roaming_trust.json: "permission setting: allowed=<peer key>" (with
// scope=<json> when the allowlist is a map) and "revoked_keys=<peer key>".
// config.yaml: GOOSE_MODE as a permission setting and GOOSE_PROVIDER /
// GOOSE_MODEL as "model setting: <provider>/<model>"; nothing else is read
// (secrets.yaml is never read).
//
// # goose/schedule (target "schedule", schedule.json)
//
// One "scheduled task: id=<id> cron=<cron> source=<recipe>[ paused][
// running]" row per job, at last_run when set (" (last run)"), else at the
// file mtime; SourceLine is the 1-based array position.
//
// Not done, each outside the seed's Files read: the threads /
// thread_messages tables (copies of messages rows regrouped across
// sessions, keyed by the same message_id), usage_ledger (token counts),
// the logs/** text logs, config.yaml gateway_pairings (the seed says it is
// not read), recipe_json.
package goose

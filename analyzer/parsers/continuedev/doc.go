// Package continuedev reads the files of Continue (continuedev/continue):
// the IDE extensions' and the cn CLI's sessions, the dev data event logs,
// and the CLI's log, permission rules and prompt history. (The package is
// not named "continue", a Go keyword.)
//
// Evidence: the formats were learned from continuedev/continue source at
// d0a3c0b626b5bebc3bef4742eec05a0242be0bab (2026-06-18): core/util/history.ts
// (HistoryManager.save/list), core/index.d.ts (Session, BaseSessionMetadata,
// ChatHistoryItem, ChatMessage, ToolCallState, ToolStatus, Reasoning),
// gui/src/redux/slices/sessionSlice.ts (reasoning.startAt = Date.now()),
// gui/src/redux/thunks/cancelToolCall.ts and streamResponseAfterToolCall.ts
// (role "tool" messages, the "Tool Call Rejected" output),
// extensions/cli/src/services/ChatHistoryService.ts (the CLI keeps results
// only in toolCallStates), extensions/cli/src/stream/streamChatResponse.helpers.ts
// (handlePermissionDenied texts), core/data/log.ts and
// packages/config-yaml/src/schemas/data (dev data 0.2.0),
// extensions/cli/src/util/logger.ts, util/metadata.ts,
// services/StorageSyncService.ts, permissions/policyWriter.ts and
// permissionsYamlLoader.ts, util/inputHistory.ts.
//
// Validated against: Continue cn 1.5.47 (npm @continuedev/cli, its
// bundled src/commands/chat.ts, session.ts and
// permissions/defaultPolicies.ts read) run against the loopback mock model,
// fixtures/roots/real-agents-3 (scripts/gen-real-fixtures-3.sh, December
// 2026): basic, --resume with another config (the model switch), Write,
// and a call refused by policy (--ask Bash in headless mode). The IDE
// sessions, dev data, metadata posts, storage uploads and input history
// remain synthetic, shaped after the source above.
//
// # continue/sessions (target "sessions", sessions/*.json)
//
// <sessionId>.json {sessionId, title, workspaceDirectory, history[], mode,
// chatModelTitle}: decoded whole from the stream. SourceLine is the
// 1-based history index (0 for the session rows). ProjectPath is
// workspaceDirectory (a file:// URI from the IDEs becomes a path).
//
// Times: messages carry no time (cn 1.5.47 still records none). Every row
// takes the session's dateCreated from sessions.json beside it (opened
// with OpenRelated), TimeInherited, in history order. A session cn
// resumed: cn.log's "Resuming previous session..." line (host-local time,
// read as UTC) names no session, so a resume at t is this session's when
// it is the only collected session created before t and written (file
// mtime) at or after it; when the session holds one prompt more than its
// resumes (a headless run is one prompt), each resumed run's rows, from
// its prompt on, inherit its resume's time instead; otherwise every row
// keeps dateCreated and a problem says which resumes could not be placed.
// dateCreated is a string of epoch ms (String(Date.now())); a number or an
// ISO string is accepted too, and old snake_case entries (session_id,
// date_created) are matched. When sessions.json is not collected, empty,
// not valid JSON, or has no entry for the session, the session is still
// read and its rows carry the session file's mtime (TimeFileMTime: the
// last save, an upper bound for every message), or TimeNone when no mtime
// is known; a Problem says which. The one recorded time is an item's
// reasoning.startAt (epoch ms), given to its thinking row.
//
// RecordID: history items have no id; a tool call's row is its call id,
// its result "<id>#result", a refusal "<id>#decision". Every history
// item gives rows, an "empty_message" skip or a problem; sessions.json
// entries whose file is collected are "state_only" skips.
//
// Rows: "session name: <title>" and "session mode: <mode>"; per history
// item: user content (text parts joined, images "[image]") is a user row
// and each contextItem a system "context item: <name> (<uri>)\n<content>"
// row; assistant content an assistant row, reasoning.text and role
// "thinking" messages thinking rows (redacted thinking "[redacted
// thinking]"), toolCalls tool_use rows (ToolInput the parsed arguments
// string, Text the command, file path, URL, pattern or query); role "tool"
// messages tool_result rows linked by toolCallId, IsError "true" when the
// call's toolCallStates status is errored or canceled. A toolCallStates
// entry with no role "tool" message (the CLI writes none) gives the
// tool_result from its output at the call's line. A refused call (the IDE's
// "Tool Call Rejected" output, the CLI's "Permission denied by user" or
// "Command blocked by security policy") adds "permission decision: denied
// source=user|policy". Role "system" and conversationSummary are system
// rows. Model is the assistant message's usage.model (cn 1.5: the model
// that answered), else the item's last promptLogs modelTitle, else the
// session's chatModelTitle, on every assistant, thinking and tool_use row;
// "model: <model>" is written at the first assistant item and "model:
// <old> -> <new>" when it changes.
//
// sessions.json itself gives one "session listed in sessions.json without
// its session file: <title>" row (at dateCreated) per entry whose
// <id>.json was not collected: a deleted or lost session.
//
// # continue/dev-data (target "dev-data", dev_data/<schema>/*.jsonl)
//
// Secondary, timestamped (ISO UTC) events; userId (the IDE's user token) is
// never read. chatInteraction: "chat interaction: model=.. provider=..
// tools=.." and the completion as an assistant row (prompt is the whole
// compiled prompt, not what was typed, so it is not a user row).
// toolUsage: tool_use and tool_result rows by toolCallId (IsError from
// succeeded) and "permission decision: denied source=user" when accepted
// is false. editInteraction: the typed edit instruction as a user row and
// "edit interaction: <file> model=..". editOutcome: "edit outcome:
// accepted|rejected <file> lines <old> -> <new> model=..". chatFeedback:
// "chat feedback: helpful|unhelpful model=..".
//
// # continue/cli-log (target "logs", cn.log and rotated cn<N>.log)
//
// winston lines "YYYY-MM-DD HH:mm:ss.SSS [tag] [level]: message {meta}" in
// host-local time (TimeLocalAsUTC). Only these lines give rows:
// "Resuming previous session..." -> "session resumed: --resume loaded
// the session written last", in the session it resumed when only one can
// be (see Times above), else with no session and the number of candidates;
// "[metadata] POST <url> {agentId, metadataKeys}" -> "agent metadata
// posted: agent=<id> keys=<k,..> url=<url>" (SessionID the agent id);
// "Storage sync requested but ..." -> "storage upload requested, skipped:
// <reason>"; "Storage sync enabled ..." -> "storage upload requested:
// <message>"; "... Storage uploads disabled for this session." ->
// "storage upload requested, failed: <message>"; "Added policy rule to
// permissions.yaml: <rule>" -> "permission decision: allow always
// source=user rule=<rule>"; "Tool call denied {name, arguments, reason}" ->
// "permission decision: denied source=<reason> tool=<name>". Every other
// line is a "no_evidence:log_line" skip, a line that is not a winston line
// (a stack trace) a "log_continuation" skip.
//
// # continue/permissions (target "permissions", permissions.yaml)
//
// {allow, ask, exclude: [rule]}: one "permission setting: <list>=<rule>
// (from <file>, file mtime)" row per rule, SourceLine the YAML line.
//
// # continue/input-history (target "input-history", input_history.json)
//
// A JSON array of {text, timestamp (epoch ms)}, newest first: one
// secondary user row per entry at its time, SourceLine the array position.
//
// Not done: config.yaml/config.json and assistants/*.yaml (catalog kind
// secret: they hold the API keys), the IDE's core.log and other
// logs/*.log, dev_data autocomplete/tokensGenerated/nextEdit events,
// promptLogs prompt text (the compiled prompt, not what was typed),
// session usage totals, the CLI's remote (cn serve) session records other
// than its log lines; dev data rows carry no record id (the events have
// none: they pair with the session rows by text within the window).
package continuedev

// Package gemini parses Gemini CLI's on-disk state.
//
// Parsers (IDs "gemini-cli/<format>"):
//
//   - chat: ~/.gemini/tmp/<slug>/chats/**/*.jsonl and legacy *.json (also
//     under ~/.cache/.gemini). A .jsonl file is an append-only op-log that
//     is replayed before any row is emitted, as the agent's own loader
//     (loadConversationRecord) does, with one deliberate difference for
//     $set batches. The first line is metadata {sessionId, projectHash, startTime,
//     lastUpdated, kind} (a resume appends another); any record with a
//     string id is a message, and a later bare copy of the same id replaces
//     the earlier in place (the agent appends a message again when tokens or
//     tool calls are added); {"$rewindTo":"<id>"} drops that message and
//     every later one (all of them when the id is unknown); {"$set":{...}}
//     updates metadata, and when it carries messages (the agent's history
//     sync on resume, compression or output masking) its messages with new
//     ids are added while held messages keep their first-hand record and
//     none is dropped. The agent's loader would replace the whole list, but
//     the real 0.61.0 resume batch re-dates every earlier message to the
//     resume time, drops their toolCalls and reuses a gemini message's id
//     for the tool response turn, so replacing would lose the first run's
//     times and calls (TestRealAgentResume). {"$patch":{...}} is not written by the agent at the commits
//     read: a patch naming a held message id is merged into that message,
//     any other is read as a metadata update. Replay holds one raw copy of
//     each live message (keyed by id, in order), so memory is the size of
//     the session's current messages, not of the file; lines are read with
//     parser.Lines and a line cut by a crash (with a record glued after it)
//     is a problem, not a stop. A legacy .json ConversationRecord is decoded
//     from the stream; the messages decoded before a cut are kept.
//
//     Rows: a user message is a user row (its displayContent when set), or
//     a system row when the agent injected it (<session_context>,
//     <hook_context>, <state_snapshot> and the like); a user message that
//     only echoes a tool response already held in the call's result gives
//     no row (otherwise a tool_result). A gemini message gives a system row
//     "model: <id>" at the file's first model and "model: <old> -> <new>"
//     on each change, a thinking row per thoughts[] entry at its own
//     timestamp (and per thought part), an assistant row for its text, and
//     per toolCalls[] entry a tool_use row (ToolInput the args, Text the
//     command, file path, pattern, URL or query) at the message time and a
//     tool_result row at the call's timestamp (Text the functionResponse's
//     response.output, or response.error which makes IsError true, as does
//     status error; ToolUseID the call id). A call with status cancelled
//     or awaiting_approval is followed by a system row "permission
//     decision: <status>". info, error and warning messages are system rows
//     "<type>: <text>". A subagent file chats/<parentSessionId>/<id>.jsonl
//     opens with "subagent <id> of <parent>" (session_id the subagent's
//     own id). SourceLine is the line of a message's last copy (the $set
//     line for a batch) or, for legacy JSON, the 1-based message index. A
//     session split over two files (same sessionId, as in the M-Gemini
//     samples) keeps its id in both. Project path: the slug directory's
//     .project_root, else ~/.gemini/projects.json (path -> slug, or a path
//     whose sha256 is the hash slug or the session's projectHash), else "".
//
//   - logs: tmp/<slug>/logs.json, the prompt log: one secondary user row
//     per entry {sessionId, messageId, type, message, timestamp}, line the
//     1-based array index.
//
//   - settings: ~/.gemini/trustedFolders.json, one row "permission setting:
//     trustedFolders.<path>=<value> (from <file>, file mtime)" per folder
//     with project_path the folder; ~/.gemini/settings.json (comments
//     allowed), "permission setting: <key>=<value> (from <file>, file
//     mtime)" per leaf of general.defaultApprovalMode, tools.sandbox*,
//     tools.core/allowed/confirmationRequired/exclude, mcp.allowed/excluded,
//     mcpServers.<name>.trust/includeTools/excludeTools, security.* and the
//     pre-0.3 flat names, one row per array element, and "session retention:
//     general.sessionRetention.<key>=<value> ...". All at the file's
//     modification time. A key whose name looks like a secret (api key,
//     token, password...) has its value printed as [redacted].
//
//   - tmp-history: tmp/<slug>/shell_history (shell-mode commands, user
//     rows) and checkpoint-<tag>.json (/chat save; its Content[] history as
//     user, assistant, thinking, tool_use and tool_result rows), secondary
//     sources with no timestamp and no session id.
//
// Not read: bug-report-history-*.json, tool-outputs/, policies/*.toml,
// trusted_hooks.json, acknowledgments, a project's own .gemini/settings.json,
// the session summary and memoryScratchpad metadata, token counts.
//
// Evidence: the real Gemini CLI 0.61.0 run against a loopback model
// (fixtures/roots/real-agents, a JSONL op-log with a $set messages batch,
// a repeated message id, a tool call and its functionResponse echo);
// the legacy JSON samples from mischa-thisness/M-Gemini at d0521628 and
// 3bad8d46 (shared/agent-samples/gemini-cli, real but redacted by their
// owner); source google-gemini/gemini-cli at
// 5411f113cafae26161b4969b0237b8e1e024e2c2 (0.56.0-nightly, 2026-08-21):
// packages/core/src/services/chatRecordingService.ts (op-log writer and
// loader), chatRecordingTypes.ts, core/logger.ts (logs.json, checkpoints),
// utils/sessionUtils.ts (injected user content), cli/.../useShellHistory.ts
// and cli/src/config/settingsSchema.ts.
package gemini

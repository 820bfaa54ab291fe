// Package qwen parses Qwen Code's on-disk state (a fork of Gemini CLI; the
// package follows parsers/gemini's approach but Qwen's session files are a
// different, append-only record format, so nothing is replayed).
//
// Parsers (IDs "qwen-code/<format>"):
//
//   - chat: ~/.qwen/projects/<slug>/chats/<sessionId>.jsonl and
//     chats/archive/. One ChatRecord per line {uuid, parentUuid, sessionId,
//     timestamp, type user|assistant|tool_result|system, subtype,
//     provenance, cwd, version, gitBranch, message {role, parts[]}, model,
//     usageMetadata, executionContext, toolCallResult, systemPayload,
//     forkedFrom}. The file is append-only; it is streamed line by line
//     with parser.Lines, a cut or glued line is a problem, not a stop.
//
//     Rows: a user record a person typed (no subtype, or
//     mid_turn_user_message / realtime_message / agent_mention, with
//     provenance real_user) is a user row, its systemPayload.displayText
//     when set (what was typed, before @-file expansion and hook context);
//     notification, cron, goal_runtime, agent_message records and text
//     opening with an injected tag (<system-reminder> and the like) are
//     system rows. An assistant record gives "model: <id>" the first time
//     the file names a model and "model: <old> -> <new>" on a change, then
//     a thinking row (thought parts), an assistant row (text parts) and one
//     tool_use row per functionCall part (ToolUseID the call id, Text the
//     command, file path, pattern, URL or prompt, ToolInput the args). A
//     tool_result record gives one tool_result row per functionResponse
//     part (Text response.output, or response.error which makes IsError
//     true, as does toolCallResult.status error), and for status cancelled
//     or awaiting_approval a following "permission decision: <status>". A
//     user record's executionContext gives "model: ..." and "permission
//     mode: <approvalMode>" rows when they change. System records:
//     session_model "model: <id> auth=<authType>", session_approval_mode
//     "permission mode: <mode>", ui_telemetry tool_call events the user
//     answered (decision other than auto_accept) "permission decision:
//     <decision> (tool_call ui_telemetry)", api_error events "api error:
//     ...", slash_command invocations, at_command, chat_compression,
//     custom_title, parent_session, session_source, agent_retry,
//     turn_result, background_task_completed as system rows named for
//     them; any other subtype "system record: <subtype>". A record that
//     gives no row is a skip naming why: "state_only:<subtype>" for the
//     attribution and file-history snapshots, branch checkpoints, goal and
//     managed-session bookkeeping, "no_evidence:ui_telemetry:<event>" for
//     the telemetry that only feeds the agent's stats (api_response,
//     auto-accepted calls), "no_evidence:slash_command:result" (the
//     invocation is the row), "no_evidence:<type>[:<subtype>]" otherwise.
//
//     /rewind (ChatRecordingService.rewindRecording at 015346f): the rewind
//     system record's parentUuid re-roots the conversation at the record
//     before the rewound turn, so every live record after that one sits on
//     a dead branch the agent skips on resume. They happened and stay as
//     rows; the rewind record gives "rewound by /rewind at <time>: <n>
//     record(s)", <n> the records it took out of the conversation (all of
//     them when parentUuid is null or not in the file), the same row as
//     gemini-cli's $rewindTo (systemPayload.truncatedCount, a count of UI
//     history items, is not the record count and is not printed).
//
//     Subagents: a subagent transcript (records with isSidechain and
//     agentId, under projects/<slug>/subagents/<session>/agent-<id>.jsonl)
//     opens with "subagent <agentId> of <sessionId>" (RecordID
//     "<agentId>#subagent"); its rows carry the agentId as session id and
//     the parent session as parent_session_id, and its session state names
//     the parent. Its first user text is the prompt the parent's model
//     wrote (the agent call's prompt): a system row "subagent task:
//     <text>", never a user row; later user text in it is the harness's, a
//     system row.
//
//     Forks: /branch copies each record verbatim under the new sessionId
//     with forkedFrom {sessionId, messageUuid}: those rows are the
//     original's (session the original, RecordID from messageUuid,
//     Replayed), the fork's own later rows carry the original as
//     parent_session_id and the fork's state names it in forked_from.
//
//     Session state: a session_source record says which integration
//     created the session: sourceType "channel" (a messaging channel, the
//     channels' daemon bridge) gives relayed "yes", any other source
//     (standalone, ...) "no"; a file without one tells nothing (""). A
//     parent_session record (create_sub_session) names the parent session.
//
//     Identity: RecordID is the record's uuid, "<uuid>#<i>" for part i of a
//     record of several parts (the joined thought and text rows take the
//     index of their first part), "<uuid>#model", "#mode" and "#decision"
//     for derived rows. Project path: the record's cwd. A record without a
//     timestamp inherits the previous record's.
//
//   - logs: tmp/<hash>/logs.json, the prompt log (core/logger.ts), a JSON
//     array decoded from the stream: a user entry is a secondary user row,
//     a model_switch entry (a ModelSwitchEvent as JSON) a secondary
//     "model: <from> -> <to> reason=<reason>"; line the 1-based index.
//
//   - settings: .qwen/trustedFolders.json, "permission setting:
//     trustedFolders.<path>=<value> (from <file>, file mtime)" per folder
//     with project_path the folder; .qwen/settings.json in the home or a
//     project (catalog target "project", project_path the project), one
//     "permission setting:" row per permissions.allow, ask and deny rule,
//     for tools.approvalMode and per element of the older tools.core,
//     allowed and exclude lists. All at the file's modification time; no
//     other key is read (no secret value reaches a row).
//
//   - channels: .qwen/channels/sessions.json and
//     channels/daemon/<hash>/routes.json (SessionRouter's persisted routes
//     {<routing key>: {sessionId, target {channelName, senderId, chatId,
//     threadId, isGroup}, cwd, turns, startedAt}}): one "session relayed:
//     channel=... chat=... sender=... key=..." row per route at startedAt
//     (else the file mtime), and Sink.Session Relayed "yes".
//
//   - usage: .qwen/usage_record.jsonl, one secondary "session usage:" row
//     per session summary (models with request and token totals, tool
//     calls, lines changed) at its timestamp, project_path its project; it
//     outlives a deleted transcript.
//
//   - legacy-chat: tmp/<project hash>/chats/session-<time>-<id8>.json, the
//     whole-file ConversationRecord {sessionId, projectHash, startTime,
//     lastUpdated, messages} of Qwen Code before the JSONL ChatRecord (the
//     ChatRecordingService of the published @qwen-code/qwen-code 0.1.3,
//     cli.js, as Gemini CLI's legacy chats with the model's messages of
//     type "qwen"), read by parser/format/geminichat's ParseChat: user
//     prompts, thoughts, replies, tool calls with their results and
//     statuses, other message types (info, error) as system rows. The
//     project is named only by hash and is not resolved.
//
// Not read, with the reason: .qwen/usage/token-usage-<month>.jsonl
// (collected; per-request token counts with session, model and time that
// usage_record.jsonl sums per session, not listed by the seed); subagent
// <id>.meta.json (not in the catalog; the transcript's records carry the
// same agent and parent ids); checkpoints and the extension store (not in
// the catalog); QWEN.md (memory instructions, no permission or record);
// token counts of assistant records (no act).
//
// Evidence: a real Qwen Code 0.24.4 (@qwen-code/qwen-code) run against a
// loopback OpenAI-compatible mock (fixtures/roots/real-agents-2, home
// examiner2: basic, resume with a model change, edit, denied, subagent,
// api-error and killed scenarios; usage_record.jsonl; settings.json).
// Source QwenLM/qwen-code: packages/core/src/services/chatRecordingService.ts
// at 1ef5167055c937d5a87e8fe0bde5a53503f1c833 (the first JSONL ChatRecord
// writer) and at 015346f1d5d7312fddaf84a7ef1f83c7d217d389 (system
// subtypes, provenance, executionContext, session_model,
// session_approval_mode, ui_telemetry payloads, tool_result
// toolCallResult.status, rewindRecording, forkedFrom, session_source,
// parent_session); packages/core/src/core/logger.ts at
// 2e51eac75ee8afc468017b73bff130d117b281e4 (logs.json, model_switch);
// packages/channels/base/src/SessionRouter.ts at
// 045229398087dac03caa4264b45943d40d61a493 (routes persisted as JSON) and
// DaemonChannelBridge.ts at 06aed4c450b35f3915b38e26ff0eb58b9df77b6d (a
// channel session stamps its source). The seed's source commits 2c591ec
// and 5dcf7c7 (0.25.3) could not be opened here (the repository snapshot
// is too large to fetch).
package qwen

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
//     usageMetadata, executionContext, toolCallResult, systemPayload}. The
//     file is append-only (records on an abandoned rewind branch stay in
//     it and are emitted: they happened); it is streamed line by line with
//     parser.Lines, a cut or glued line is a problem, not a stop.
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
//     custom_title, parent_session, session_source, rewind, agent_retry,
//     turn_result, background_task_completed as system rows named for
//     them; attribution and file-history snapshots, branch checkpoints,
//     goal and managed-session bookkeeping give no row; any other subtype
//     "system record: <subtype>". A subagent transcript (records with
//     isSidechain and agentId, under projects/<slug>/subagents/<session>/
//     agent-<id>.jsonl) opens with "subagent <agentId> of <sessionId>" and
//     its rows carry the agentId as session id. Project path: the record's
//     cwd. A record without a timestamp inherits the previous record's.
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
// Not read: the legacy tmp/<hash>/chats/*.json (Gemini-style, not in the
// catalog), .qwen/usage/token-usage-<month>.jsonl (per-request token log,
// not in the catalog), subagent <id>.meta.json, checkpoints, the
// extension store, QWEN.md, token counts of assistant records.
//
// Evidence: a real Qwen Code 0.24.4 (@qwen-code/qwen-code) run against a
// loopback OpenAI-compatible mock (fixtures/roots/real-agents-2, home
// examiner2: basic, resume with a model change, edit, denied, subagent,
// api-error and killed scenarios; usage_record.jsonl; settings.json).
// Source QwenLM/qwen-code: packages/core/src/services/chatRecordingService.ts
// at 1ef5167055c937d5a87e8fe0bde5a53503f1c833 (the first JSONL ChatRecord
// writer) and its newest revision in the search index (system subtypes,
// provenance, executionContext, session_model, session_approval_mode,
// ui_telemetry payloads, tool_result toolCallResult.status);
// packages/core/src/core/logger.ts at
// 2e51eac75ee8afc468017b73bff130d117b281e4 (logs.json, model_switch);
// packages/channels/base/src/SessionRouter.ts at
// 045229398087dac03caa4264b45943d40d61a493 (routes persisted as JSON).
// The seed's source commits 2c591ec and 5dcf7c7 (0.25.3) could not be
// opened here (the repository snapshot is too large to fetch).
package qwen

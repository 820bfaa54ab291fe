// Package gemini parses Gemini CLI's on-disk state.
//
// Parsers (IDs "gemini-cli/<format>"):
//
//   - chat: ~/.gemini/tmp/<slug>/chats/**/*.jsonl and legacy *.json (also
//     under ~/.cache/.gemini). A .jsonl file is an append-only op-log that
//     is replayed before any row is emitted, as the agent's own loader
//     (loadConversationRecord) does, with three deliberate differences. The
//     first line is metadata {sessionId, projectHash, startTime,
//     lastUpdated, kind} (a resume appends another); any record with a
//     string id is a message, and a later bare copy of the same id replaces
//     the earlier in place (the agent appends a message again when tokens or
//     tool calls are added: the op-log's own update, so the earlier copy is
//     a skip "superseded"). Third difference: a later copy that changes
//     what the message said (type, content, displayContent, timestamp, a
//     tool call's name or arguments, or a tool call gone) is no update
//     ChatRecordingService makes (pushMessage from recordMessage,
//     recordMessageTokens, recordToolCalls at gemini-cli 016443b5): both
//     copies keep their rows, the later line is a duplicate_id problem
//     naming what changed, and the message keeps its first place for
//     $rewindTo, as in the agent's Map; {"$set":{...}} updates metadata (a skip
//     "state_only"). First difference, /rewind (gemini-cli PR 15720,
//     rewindCommand.tsx -> ChatRecordingService.rewindTo): {"$rewindTo":
//     "<id>"} takes that message and every later one out of the agent's
//     conversation (all of them, and a problem, when the id is unknown, as
//     the loader does), but what happened stays: they keep their rows, and
//     at the $rewindTo line a system row "rewound by /rewind at <time>: <n>
//     record(s)" follows them (RecordID "<id>#rewound"), <n> the messages
//     taken out, <time> the last time the file recorded before the line
//     (time_basis inherited: the line carries none). Second difference, a
//     $set carrying messages (the agent's history sync on resume,
//     compression or output masking): its messages with new ids are added,
//     while every message already seen keeps its first-hand record and none
//     is dropped; the batch's copies of held messages are rows too, under
//     the messages' record ids and marked replayed, so the engine's
//     identity merge writes each once (the first-hand row, with its own
//     time, wins; counted as repeated by id) and names a copy that says
//     otherwise as a duplicate_id (a batch whose copies give no row is a
//     skip "history_sync_copy").
//     The agent's loader would replace the whole list, but the real 0.61.0
//     resume batch re-dates every earlier message to the resume time, drops
//     their toolCalls and reuses a gemini message's id for the tool response
//     turn, so replacing would lose the first run's times and calls
//     (TestRealAgentResume). {"$patch":{...}} is not written by the agent at
//     the commits read: a patch naming a held message id is merged into
//     that message, any other is read as a metadata update. Replay holds one
//     raw copy of each distinct message id (rewound ones included), so
//     memory is the size of the session's messages, not of the file's
//     copies; lines are read with parser.Lines and a line cut by a crash
//     (with a record glued after it) is a problem, not a stop. A legacy
//     .json ConversationRecord is decoded from the stream (each element its
//     own record, no update semantics: a reused id gives two rows and the
//     engine's duplicate_id report); the messages decoded before a cut are
//     kept.
//
//     Rows: a user message is a user row (its displayContent when set), or
//     a system row when the agent injected it (<session_context>,
//     <hook_context>, <state_snapshot> and the like); a user message that
//     only echoes a tool response already held in the call's result gives
//     no row (a skip "tool_response_echo"; otherwise a tool_result). A
//     gemini message gives a system row "model: <id>" at the file's first
//     model and "model: <old> -> <new>" on each change, a thinking row per
//     thoughts[] entry at its own timestamp (and per thought part), an
//     assistant row for its text, and per toolCalls[] entry a tool_use row
//     (ToolInput the args, Text the command, file path, pattern, URL or
//     query) at the message time and a tool_result row at the call's
//     timestamp (Text the functionResponse's response.output, or
//     response.error which makes IsError true, as does status error;
//     ToolUseID the call id). A call with status cancelled or
//     awaiting_approval is followed by a system row "permission decision:
//     <status>". info, error and warning messages are system rows "<type>:
//     <text>". A message that gives no row is a skip "no_evidence:empty_
//     gemini" or "no_evidence:empty_user"; every line ends as rows, a skip
//     or a problem.
//
//     Subagents: a file chats/<parentSessionId>/<id>.jsonl (kind subagent)
//     opens with "subagent <id> of <parent>" (RecordID "<id>#subagent");
//     every row carries the subagent's own session id and the parent as
//     parent_session_id, and its session state names the parent. Its first
//     user text is the prompt the parent's model wrote (the invoke_agent
//     call's prompt): a system row "subagent task: <text>", never a user
//     row; any later user text in it is the harness's, a system row.
//
//     Identity: RecordID is the message id for the message's own row
//     (user, assistant, info/error/warning text), "<id>#model" for a model
//     row, "<id>#thought<k>" for thoughts[k], "<id>#thinking" for thought
//     parts, "<id>#<k>" for part k of a user message of several parts.
//     A tool call's id is unique only within a session: its tool_use row
//     is "<session>:<call id>", its result "<session>:<call id>#result", its
//     decision "<session>:<call id>#decision" (a call without an id
//     "<message id>#call<k>", a bare functionCall part "<id>#part<k>"). So a
//     session split over two files (same sessionId, as in the M-Gemini
//     samples) or a legacy file migrated to .jsonl writes each record once.
//     SourceLine is the line of a message's last copy (the $set line for a
//     batch) or, for legacy JSON, the 1-based message index. Project path:
//     the slug directory's .project_root, else ~/.gemini/projects.json (path
//     -> slug, or a path whose sha256 is the hash slug or the session's
//     projectHash), else "".
//
//   - logs: tmp/<slug>/logs.json, the prompt log (core/logger.ts): one
//     secondary user row per entry {sessionId, messageId, type, message,
//     timestamp}, line the 1-based array index. It logs every input at
//     submit (useGeminiStream prepareQueryForGemini), slash and shell-mode
//     commands too, before @-command processing; the chat records the
//     prompt when it is sent, within a second (later when a scheduled tool
//     waits on a confirmation): declared window 10 minutes. It only names
//     sessions (Spec.Trace): the retention sweep
//     (google-gemini/gemini-cli@04fbf50 packages/cli/src/utils/sessionCleanup.ts
//     cleanupExpiredSessions, at startup when general.sessionRetention is
//     enabled: sessions past maxAge or beyond maxCount, and unreadable
//     chat files) unlinks a session's chats/ file, its
//     logs/session-<id>.jsonl and tool-outputs/session-<id>/ but leaves
//     logs.json, so a session logs.json names whose chat is gone reads
//     recovered trace in sessions.jsonl, with its prompts, their times and
//     logs.json as its source file. /chat save checkpoints
//     (checkpoint-<tag>.json) hold no session id and so name none.
//
//   - restore-checkpoints: tmp/<slug>/checkpoints/<time>-<file>-<tool>.json,
//     written with general.checkpointing.enabled before a file-changing
//     tool call the user is asked to approve (not under --yolo):
//     {history, clientHistory, toolCall {name, args}, commitHash (the
//     shadow repository ~/.gemini/history/<slug>), messageId (the prompt
//     id "<session>########<n>")}. One system row per file in the session
//     the prompt id names, at the time the file name records (UTC,
//     toISOString with ':' and '.' replaced), the histories streamed and
//     only their typed prompts counted (they repeat the chat). Spec.Trace:
//     it names a session whose chat file is gone. Seen on a real 0.61.0
//     run (fixtures/roots/deleted-by-agents); read in the 0.61.0 bundle
//     (checkpointUtils.ts processRestorableToolCalls,
//     generateCheckpointFileName; useGeminiStream saveRestorableToolCalls;
//     the prompt id in useGeminiStream). Every start of gemini in the
//     project removes the checkpoints (cleanup.ts cleanupCheckpoints, run
//     by main at startup, --list-sessions and --delete-session included),
//     so a checkpoint survives only the project's last session.
//
//   - settings: ~/.gemini/trustedFolders.json, one row "permission setting:
//     trustedFolders.<path>=<value> (from <file>, file mtime)" per folder
//     with project_path the folder; .gemini/settings.json in the home or a
//     project (catalog target "project", project_path the project;
//     comments allowed), "permission setting: <key>=<value> (from <file>,
//     file mtime)" per leaf of general.defaultApprovalMode, tools.sandbox*,
//     tools.core/allowed/confirmationRequired/exclude, mcp.allowed/excluded,
//     mcpServers.<name>.trust/includeTools/excludeTools, security.* and the
//     pre-0.3 flat names, one row per array element, and "session retention:
//     general.sessionRetention.<key>=<value> ..."; .gemini/policies/*.toml
//     in the home or a project (policy/toml-loader.ts; the "Always allow"
//     answers are saved to auto-saved.toml by policy/config.ts), one
//     "permission setting: policy rule[<i>]=<field>=<value> ..." row per
//     [[rule]] (toolName, mcpName, subagent, commandPrefix, commandRegex,
//     argsPattern, decision, priority, modes, ... ) and "policy
//     safety_checker[<i>]=..." per [[safety_checker]], line its header;
//     ~/.gemini/trusted_hooks.json (hooks/trustedHooks.ts {project: ["<hook
//     name>:<command>"]}) one "permission setting: trusted_hooks.<project>=
//     <key>" row per trusted hook, project_path the project;
//     ~/.gemini/acknowledgments/agents.json (agents/acknowledgedAgents.ts
//     {project: {agent: hash}}) one "permission setting:
//     acknowledgments.agents.<project>.<agent>=<hash>" row per acknowledged
//     project agent. All at the file's modification time. A key whose name
//     looks like a secret (api key, token, password...) has its value
//     printed as [redacted], and credential-shaped text in any value is
//     redacted. Another file of a project's .gemini/ tree (a command's
//     TOML, an agent definition) is a skip.
//
//   - tmp-history: tmp/<slug>/shell_history (shell-mode commands, user
//     rows), checkpoint-<tag>.json (/chat save; its Content[] history as
//     user, assistant, thinking, tool_use and tool_result rows) and
//     bug-report-history-<ms>.json (/bug, bugCommand.ts: the chat history
//     exported for a public bug report, Content[] read the same way), all
//     secondary sources with no timestamp and no session id (window 0:
//     they pair on text alone); a /bug export opens with a primary system
//     row "bug report exported: <file> (/bug chat history export)" at <ms>,
//     the export time its name records. An entry that gives no row is a
//     skip.
//
// Not read, with the reason: tool-outputs/ (the full outputs of tool calls
// whose results the chat already holds, bulky and unstructured); GEMINI.md
// (memory instructions, no permission or record); the credentials target
// (secrets); the session summary and memoryScratchpad metadata and token
// counts (no act of the agent or the person); admin and system policies
// under /etc/gemini-cli (outside the home, not in the catalog).
//
// Evidence: the real Gemini CLI 0.61.0 run against a loopback model
// (fixtures/roots/real-agents: a JSONL op-log with a $set messages batch,
// a repeated message id, a tool call and its functionResponse echo, a
// subagent file under chats/<parent>/); the legacy JSON samples from
// mischa-thisness/M-Gemini at d0521628 and 3bad8d46
// (shared/agent-samples/gemini-cli, real but redacted by their owner);
// source google-gemini/gemini-cli at
// 5411f113cafae26161b4969b0237b8e1e024e2c2 (0.56.0-nightly, 2026-08-21):
// packages/core/src/services/chatRecordingService.ts (op-log writer,
// loader, rewindTo, subagent files), cli/src/ui/commands/rewindCommand.tsx
// (PR 15720), chatRecordingTypes.ts, core/logger.ts (logs.json,
// checkpoints), utils/sessionUtils.ts (injected user content),
// cli/.../useShellHistory.ts, cli/src/ui/commands/bugCommand.ts and
// utils/historyExportUtils.ts (/bug), core/src/policy/toml-loader.ts and
// config.ts (policies), core/src/hooks/trustedHooks.ts,
// core/src/agents/acknowledgedAgents.ts, config/storage.ts (paths) and
// cli/src/config/settingsSchema.ts. The seed's 3be3d44 (0.66.0-nightly) is
// not in the snapshot fetched here.
package gemini

// Package claudedesktop reads what the Claude desktop app (Anthropic's
// Electron app, closed source) keeps for its agent surfaces, Cowork
// (local-agent-mode) and the Code tab, under its app-data directory:
// Library/Application Support/Claude, .config/Claude, AppData/Roaming/Claude,
// AppData/Local/Claude, each also -3p, AppData/Local/Claude-Data and its
// package-family child, and for the MSIX build AppData/Local/Packages/
// {Claude,AnthropicPBC.Claude}_*/LocalCache/Roaming/Claude (catalog targets
// sessions, session-records, session-files, app-state, local-sessions,
// local-app-state, msix-sessions, msix-app-state).
//
// All shapes below are seed-derived (agents-catalog.md, claude-desktop) and
// tested on synthetic fixtures only, except the transcript format, which is
// Claude Code's and is also tested on transcripts real Claude Code wrote
// (fixtures/roots/real-agents) presented at a Cowork path.
//
// # Parsers
//
// claude-desktop/transcript: {local-agent-mode-sessions,claude-code-sessions}/
// <acct>/<org>/[agent/]<session dir>/.claude/projects/<slug>/<cliSessionId>.jsonl
// with their subagent files, and claude-code-sessions/<acct>/<org>/
// imported-staging/*.jsonl. These are Claude Code transcripts: they are
// parsed by the claude-code package's exported Transcript() parser (its
// Parse, on the same Input) through a sink that sets Agent "claude-desktop"
// and, when the session record <session dir>.json beside the session
// directory was collected, ProjectPath from its userSelectedFolders[0]
// (else a cwd that is not a /sessions/<vm> guest path, else originCwd): the
// JSONL cwd is the Cowork VM's guest path. Rows, wordings and edge cases are
// claude-code's (see that package); session ids are the cliSessionId.
//
// claude-desktop/audit (secondary): <session dir>/audit.jsonl, the Agent SDK
// message stream the app logs for a Cowork session, one JSON object a line
// with _audit_timestamp (and _audit_hmac). Read in full whether or not a
// transcript exists; every row is Secondary. The session's collected
// transcripts (<session dir>/.claude/projects/**/*.jsonl, via Input.List)
// are scanned first for record uuids, tool call ids and API message ids;
// an audit record (or block) they already hold is a counted skip
// "copy_in_transcript", not a row: the transcript is read by the
// claude-code reader, which renders the same record its own way, so the
// engine's identity merge would report the two renderings as one id with
// two contents. A transcript that cannot be read for this check is a
// problem row (its records may then repeat here). Every other line gives
// rows, or a skip "no_evidence:empty_message". RecordID is the line's uuid,
// "<uuid>#<i>" for block i of a message with several (the claude-code
// reader's scheme), "<uuid>#model" for the init line's model row. A line
// with parent_tool_use_id is a sub-agent's: the SDK stream names only
// the parent's tool use, so its rows are in session "<session>/<tool use
// id>" with parent_session_id the session, opened by "subagent <id> of
// <parent>" (RecordID "<id>#subagent") and that session's state naming
// the parent; its text is the parent model's prompt, the system row
// "subagent task: <text>". Rows: user (a string or text blocks; injected
// wrappers such as <system-reminder> are system), tool_result, assistant,
// thinking, tool_use (Text the identifying argument, ToolInput the JSON);
// system/init → "init: model=.. permissionMode=.. cwd=.. claude_code_version=..
// tools=<n> mcp_servers=<n>..." and "model: <id>"; system/permission_request
// → "permission request: <tool> <argument>"; system/permission_response →
// "permission decision: <behavior> source=user reason=<reason>"; a
// permission subtype containing "auto" → "permission decision: <decision>
// source=auto reason=<reason>" (ToolUseID and ToolName on all three);
// result → "result: <subtype> is_error=.. num_turns=.. duration_ms=..
// total_cost_usd=.. stop_reason=.. errors=.." (the result text, a copy of
// the last reply, is left out); any other line (rate_limit_event,
// model_refusal_fallback, ...) → "<subtype or type>: <its fields>". A line
// without a time inherits the previous line's. Session id: the line's
// session_id, else the record's cliSessionId.
//
// claude-desktop/session-record: local_<uuid>.json. One system row at
// createdAt, "session record: <sessionId> <cowork|code-tab> title=..
// cli_session=.. folders=a;b cwd=.. model=.. archived=..", on a Code-tab
// record then "remote_control=<bool> bridges=<n> spawned_remotely=<bool>
// steered_remotely=<bool>", on both ending "permission_mode=<permissionMode>
// effort=<effort>"; on a Code-tab record a "remote control live at update
// quit" row at remoteControlLiveAtUpdateQuit.at; at lastActivityAt (else
// createdAt) one "permission grant: <key>=<value>" row per
// alwaysAllowedReasons entry, sessionPermissionUpdates entry (rendered
// "<type> behavior= mode= destination= rules=Tool(content) directories="),
// chromePermissionMode, chromeAllowedDomains entry, cuAllowedApps entry
// ("<bundleId> (<displayName>) tier= grantedAt="), cuGrantFlags flag
// (cuGrantFlags.<flag>=<value>), cuFlagsGrantedAt, and Cowork grant list
// entry (approvedToolNames, webFetchAllowedUrls, egressAllowedDomains,
// userApprovedFileAccessPaths, enabledMcpTools keys not set to false,
// fileDeleteApprovedMounts); "session error: <type>: <message>" at errorAt
// (else lastActivityAt); and the first prompt as an undated Secondary user
// row: on a Cowork record unless the session's audit.jsonl has it (the
// engine drops it where the transcript has it), on a Code-tab record only
// when no .claude/projects/*/<cliSessionId>.jsonl was collected (an
// audit.jsonl that can only be read in part for that check keeps the
// prompt and is a problem row). Rows carry the cliSessionId (else the
// record's sessionId); RecordID is the record's sessionId (local_<uuid>),
// "#remote-control-quit", "#grant<i>", "#error" and "#prompt" for the rows
// derived from it. Key names seen in public
// third-party tools that read or write these records: sessionId,
// cliSessionId, cwd, originCwd, title, createdAt/lastActivityAt (epoch ms),
// isArchived, model, effort, permissionMode, error, errorAt,
// alwaysAllowedReasons, sessionPermissionUpdates, chromePermissionMode,
// chromeAllowedDomains, cuAllowedApps, cuGrantFlags, cuFlagsGrantedAt,
// enabledMcpTools, bridgeSessionIds, remoteControlSpawn,
// remoteControlLiveAtUpdateQuit. Guessed, not seen: the first-prompt key
// (initialMessage, firstPrompt, initialPrompt, firstUserMessage, prompt or
// message, the first holding a string), the Remote Control flag
// (remoteControlEnabled, remoteControl or remoteControlActive) and the
// steered flag (steeredRemotely, remoteSteered); spawned_remotely is a
// non-empty remoteControlSpawn (or spawnedRemotely true), bridges the
// length of bridgeSessionIds.
//
// claude-desktop/remote-session-spaces: local-agent-mode-sessions/<acct>/
// <org>/remote-session-spaces.json: one "permission setting:
// entries.<sessionId>.folders=<folder> (from remote-session-spaces.json,
// file mtime)" row per folder (a string or {path}), at the file's
// modification time, SessionID the entry's id, ProjectPath the folder; an
// entry with no folder is a skip "no_evidence:no_folders".
//
// claude-desktop/app-state: scheduled-tasks.json, one "scheduled task: <id>
// name= schedule= enabled= last_run= next_run= prompt= permission_mode=<mode>
// model=<model>" row per task, and git-worktrees.json, one "git worktree:
// <path> repo= branch= base= session=" row per worktree; each at its
// createdAt, else the file's modification time. Both files' shapes are
// guesses: a top-level array, an object with tasks/scheduledTasks/
// worktrees/entries (array or map), or a map keyed by id or path;
// SourceLine is the 1-based element index; a task's RecordID is
// "scheduled-task/<id>" (a worktree keeps no id: "").
//
// A bad JSONL line is a problem and the parse goes on (a cut record glued
// to the next is split with parser.SplitGlued); a whole-file JSON that does
// not decode is one problem and no rows.
//
// # Evidence
//
// The seed describes the app bundle 2.31226.1 (app.asar, read, not run) and
// real installs of 2.31226.1 (MSIX 2026-10-10, Linux .deb and macOS
// 2026-10-11) for the Code-tab record and its transcript; Cowork
// transcripts, audit.jsonl, imported transcripts, scheduled tasks and the
// grants are fixture only there too. No sample of any of these files was
// available here (shared agent-samples has none, and the real-agent
// fixture has no desktop app): every desktop-specific shape is
// seed-derived, cross-checked only against public third-party readers and
// writers of these files found with the code search (no commit to cite:
// the app is closed source), and tested on synthetic fixtures only.
package claudedesktop

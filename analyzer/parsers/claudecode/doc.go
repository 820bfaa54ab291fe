// Package claudecode reads the files Claude Code (Anthropic's CLI agent,
// closed source) leaves under ~/.claude (or a .claude-<name> home moved with
// CLAUDE_CONFIG_DIR), ~/.claude.json and a project's .claude/ folder.
//
// # Parsers
//
// claude-code/transcript (target "projects", *.jsonl): the session
// transcripts .claude/projects/<slug>/<session>.jsonl and the subagent
// transcripts in all three layouts: records with isSidechain inline in the
// session file (2.0.13), agent-<id>.jsonl beside the session file (2.0.x),
// and <session>/subagents/agent-<id>.jsonl including the compaction runs
// agent-acompact-<hex>.jsonl (2.1.x). One JSON record a line; rows:
//
//   - user: a string or text blocks a person typed → user; an image or
//     document block → user "[image <media type>]". Injected text is system:
//     isMeta, isCompactSummary, isVisibleInTranscriptOnly records, and text
//     starting with <command-name>, <local-command-stdout>, <system-reminder>,
//     <bash-stdout>, the "Caveat: The messages below..." note, "[Request
//     interrupted by user...]" and the other wrappers in injectedPrefixes.
//   - tool_result blocks → tool_result rows (ToolUseID, ToolName from the
//     call, IsError from is_error, the result text; blocks inside a result
//     are joined, images as "[image <type>]"). From toolUseResult, when the
//     line holds one result: "[interrupted]" and "[exit code N]" are
//     appended when recorded; a string toolUseResult is used when the
//     content is empty. A <persisted-output> stub is replaced by the file it
//     names ("Full output saved to: <path>", else toolUseResult.
//     persistedOutputPath), read through Input.OpenRelated at its original
//     path, else at <slug>/<session>/tool-results/<base>; if neither was
//     collected the stub stays.
//   - permissionDecision on a tool-result line → a system row right after
//     the results, "permission decision: <decision> source=<source>
//     reason=<reasonType>" (2.1.332 adds code=<reasonCode> rule=<ruleSource>
//     and toolDenialKind=) with the first result's ToolUseID; a refusal
//     with toolDenialKind and no decision → "permission decision: reject
//     (interrupted) toolDenialKind=<kind>".
//   - permissionMode on a user record or a permission-mode record →
//     "permission mode: <mode>" first, "permission mode: <old> -> <new>" on
//     each change (per session), before the prompt row; the mode record →
//     "session mode: <mode>".
//   - assistant: text → assistant (whitespace-only blocks dropped),
//     thinking → thinking, redacted_thinking → thinking "[redacted
//     thinking]", tool_use/server_tool_use → tool_use (Text the most
//     identifying argument: command, file_path, url, pattern, query, path,
//     description, ...; ToolInput the compact arguments), a *_tool_result
//     block → tool_result. Model is message.model. "model: <id>" precedes a
//     session's first reply and "model: <old> -> <new>" each change (with
//     requested=<requestedModel> when that differs), tracked per session
//     (each subagent its own). Synthetic replies (model "<synthetic>") are
//     system; isApiErrorMessage ones read "api error: <text>". A message
//     written as an object of numeric keys with an empty content
//     (claude-code #24663, after a streaming fallback) is reassembled in
//     key order, as the API message its characters spell or as the text,
//     with a problem row saying so.
//   - system records → "<subtype>: <content> <details>": compact_boundary
//     adds trigger= and preTokens=, api_error error= retryAttempt=n/max
//     retryInMs=, stop_hook_summary hooks=<commands>; bridge_status →
//     "session synced: remote control bridge <id> url <url>" (the id from
//     the session's last bridge-session record, else the URL's last part;
//     session state synced yes); scheduled_task_fire (a /loop or cron
//     firing) → "scheduled task fired: <taskId> cron=<cron> (<content>)".
//   - bridge-session → "remote control: bridge session <bridgeSessionId or
//     none> lastSequenceNum=<n>" (a bridge id sets synced yes);
//     continued-in → "session continued in: <continuedInSessionId>" and the
//     new session's state forked_from and parent_session_id this one;
//     teleported-from → "session origin: remote (teleport, remoteSourced)
//     remoteSessionId=<id>".
//   - session origin (once per session, at the record that tells):
//     "session origin: local (VS Code extension)" for entrypoint
//     claude-vscode; "session origin: remote (teleport, remoteSourced)" for
//     a record with remoteSourced true; "session origin: remote (Remote
//     Control, entrypoint sdk-cli)" for an sdk-cli session with a bridge
//     session (one the `claude remote-control` server spawned; a plain
//     `claude -p` run is sdk-cli too and gets no origin row). The session
//     state reads origin remote for those, local for entrypoint cli,
//     claude-vscode or claude-desktop, and "" otherwise.
//   - summary → "summary: <text>"; queue-operation → "queue-operation
//     <operation>[: <content>]"; attachment → "attachment <type>: <names or
//     content>" (model → its modelId, deferred_tools_delta → added/removed
//     tools and pending, needing-auth or failed MCP servers,
//     remote_session_change → its url); the environment attachment also
//     gives "scratch directory: <scratchpadDirectory>" once per session and
//     on each change; progress of kind hook_progress → "hook <hookName>:
//     <command>"; the first entrypoint of a session → "session surface:
//     <entrypoint>"; a typed prompt carrying promptSource (other than
//     "user") or turnOrigin → "prompt trigger: promptSource=<p>
//     turnOrigin=<o>" after it. Any other record type (custom-title,
//     pr-link, tag, ...) → "<type>: key=value ..." of its own keys.
//   - what happened stays: a typed prompt chained (parentUuid) to a record
//     that already had a prompt or a reply after it (/rewind, a resume at
//     an earlier message) is followed by "rewound: this prompt continues
//     from record <uuid>; the records written after that one stay, as an
//     abandoned branch"; the abandoned records are rows like the others.
//     Compaction keeps every record too, with the compact_boundary row.
//   - counted skips (Sink.Skip, reason in inventory.json): the bookkeeping
//     2.1.332 writes beside every turn, api-request (request parameters),
//     api-request-shape (the system prompt and tool schemas sent),
//     api-request-blob and tools-used (copies of what rows hold),
//     cost-state (running totals), atis-latch with an empty atis;
//     file-history-snapshot and -delta (backup bookkeeping); last-prompt (a
//     copy of a prompt); the prompt_snapshot, date, total_tokens_reminder
//     attachments and a remote_session_change without a url; bash_progress
//     and mcp_progress (the tool's result holds the output); a mode record
//     or permission-mode record that changes nothing (state_only). Any
//     other record that gives no row is a skip "no_evidence:<type>".
//
// Identity. RecordID is the record's uuid; "<uuid>#<n>" for block n of a
// record with several content blocks; "<uuid>#<word>" for a derived row
// (#surface, #mode, #model, #decision, #trigger, #origin, #scratch,
// #rewound); a
// subagent's header is "<agent id>#subagent". Records without a uuid
// (queue-operation, summary, bridge-session) carry "". Nothing is
// de-duplicated here: a line written twice gives its rows twice, a uuid
// reused with other content gives both (the engine reports duplicate_id),
// and a block of one API message written again under another uuid carries
// the first row's id, so the identity merge writes it once. One API
// message is its message.id and the record's requestId, from its first
// line to the next message or the next typed prompt, and blocks are
// compared whole (type, id, text, thinking, input): a gateway that reuses
// a message id for a later turn's reply (a mock model did) answered
// another request, or another prompt, and that reply is its own row (v5;
// v4 forgot earlier blocks only when the message id changed, and wrote a
// later turn's identical reply once).
//
// Session id: the record's sessionId, else the file name. Subagent rows
// carry the subagent's own id (agentId, else the file's agent-<id>, else
// an inline sidechain's root uuid) as session and the parent session as
// parent_session_id; the first row is "subagent <id> of <parent>", the
// parent model's prompt (the subagent's first user text) is the system
// row "subagent task: <text>", and the subagent's session state carries
// its parent. An agent_progress record of the parent (2.1.x) copies one
// of the subagent's records: its rows are the subagent's, in its session,
// with the copied record's uuid, marked Replayed: when the subagent's file
// was collected its rows win the identity merge and the copies are counted
// repeats; when it was not (claude-code #43764) the copies stand for it.
//
// Forks and copies. A record carrying forkedFrom {sessionId, messageUuid}
// (/branch, the SDK's forkSession) is the original's: its rows carry the
// original session and messageUuid as RecordID, Replayed; the fork's own
// rows carry the original as parent_session_id and its state forked_from.
// In a file named by a session uuid, records of another sessionId before
// the file's own (a 1.0.x resume that copied the old conversation) are
// replayed the same way and the file's session is forked from that one. A
// --fork-session copy re-stamps sessionId and writes no marker (the
// mainframe research below): its rows carry the original uuids, so the
// identity merge writes each record once, in the file first in the merge
// order, not necessarily the parent's. ProjectPath is the record's cwd.
// A record without a time (summary, bridge-session) takes the previous
// record's time, or the next one's at the top of a file, with TimeBasis
// inherited; TimeNone when the file has no time at all.
//
// Quirks handled, each with a test on the smallest input: split messages,
// a repeated line, a truncated last line and a cut line mid-file (a
// Problem, the parse goes on), a cut record glued to the next one
// (parser.SplitGlued keeps the whole one; every record of a glued line
// is read), a member of an unexpected type such as a numeric timestamp
// (parser.DecodeLenient reads it as null, a problem names it, the record
// keeps its rows), NUL runs (parser.Lines drops
// them and reports nul_run; the record after a 4 KB run is kept,
// claude-code #49876, #76059), a lone UTF-16 surrogate (decoded as
// U+FFFD), the detached compaction branch (rows are emitted in file
// order, never by walking parentUuid, so nothing is lost), the three
// subagent layouts, and an 831 KB line (agentlogs/images.jsonl).
//
// claude-code/history (target "history"): .claude/history.jsonl, one user
// row per typed prompt with Secondary=true: display with each "[Pasted text
// #N +M lines]" replaced by pastedContents[N].content, or by
// .claude/paste-cache/<contentHash>.txt when collected; time from timestamp
// (epoch ms); project; sessionId when recorded.
//
// claude-code/legacy-history (target "claude-json"): the prompt history
// Claude Code 1.0.x kept in ~/.claude.json (and its .backup copies) under
// projects[<path>].history, newest first, up to 100 a project, before
// .claude/history.jsonl took it over (anthropics/claude-code#1449, #816;
// still written by 1.0.100 and 1.0.110, #6988, #7385). One user row per
// entry with Secondary=true, ProjectPath the project key, SourceLine the
// entry's line in the file: display with its paste placeholders expanded
// from pastedContents as for history.jsonl (an entry that is a bare string,
// as the earliest releases wrote, is its own text). The file records no
// time and no session: TimeBasis none, SessionID and RecordID "" (the
// engine keys such rows by their full values, so a .backup copy's entry
// is the same row); a prompt the transcript also holds pairs with it (no
// window). An empty entry is a skip "no_evidence:empty history entry"; a
// cut file keeps the entries before the cut with a problem. The file is
// read with a token decoder that steps over every other member (the
// account, tokens, caches) without decoding it. Shape from the issues
// above and the 1.0.x files quoted in them; the changelog of
// anthropics/claude-code at 5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357
// names no release for the move.
//
// claude-code/settings (targets "settings", "claude-json" and "project"):
// one system row per entry at the file's mtime (TimeBasis file-mtime):
// "permission setting: <key>=<value> (from <file>, file mtime)" for
// permissions.allow, deny, ask, additionalDirectories, defaultMode,
// disableBypassPermissionsMode, enableAllProjectMcpServers and
// enabledMcpjsonServers in settings.json / settings.local.json (a
// project's file, collected as a project artifact with target "project",
// gets that project as ProjectPath), "retention setting:
// cleanupPeriodDays=<n> ..." and "model setting: <alias> ..."; from
// .claude.json (and .claude.json.backup) projects.<path>.allowedTools,
// ignorePatterns (before 1.0.7, which moved them to deny rules),
// hasTrustDialogAccepted and hasClaudeMdExternalIncludesApproved with the
// project as ProjectPath, "remote control: spawn mode <mode> for <path>"
// from projects.<path>.remoteControlSpawnMode, "remote control: machine
// id set" when remoteControlMachineId is (its value is never printed),
// "cloud: hasRemoteEnvironment=<bool>" and "source host: github
// status=<status>" from githubWebConnectionStatusCache. The files are
// decoded into structs holding only those keys: env, apiKeyHelper,
// oauthAccount and the rest are never read.
//
// claude-code/sessions (target "sessions"): .claude/sessions/<pid>.json, one
// row at startedAt, "claude-code process <pid> <kind> status=<status>
// entrypoint=<entrypoint> bridge=<bridgeSessionId or none>
// host_session=<hostSessionId or none>"; with a bridgeSessionId also
// "session synced: remote control bridge <id> url - (from <path>, file
// mtime)" and a SessionState Synced=yes. The <pid>.<sha>.key sibling is
// never read.
//
// claude-code/remote (targets "project-files" and "project"): the server
// form of Remote Control. bridge-pointer.json → "remote control:
// environment <environmentId> session <sessionId> source=<source> (from
// bridge-pointer.json, file mtime)" (the pointer names the cloud session,
// so the row carries no local session); <slug>/<session>.ccr-tip.json (or
// <session>/ccr-tip.json) → "session synced: remote event <eventId> at
// <updatedAt> (from ccr-tip.json)" at updatedAt, in that session, synced
// yes.
//
// claude-code/todos (target "todos", parse_leftovers.go):
// todos/<session>-agent-<agent>.json, the agent's last TodoWrite list (the
// objects of a transcript's toolUseResult.newTodos: content, status,
// activeForm; see the tomjnsn/agentlogs todos.jsonl sample in
// shared/agent-samples, Claude Code 2.0.14): "todo list of <the main
// agent | agent A>: N item(s)" (record id "<session>#todos-<agent>") and
// "todo [<status>]: <content>" per item ("#todos-<agent>-<i>"), system
// rows at the file's mtime (the file records no time). A name that is not
// <session>-agent-<agent>.json is a skipped_record problem.
//
// claude-code/file-history (target "file-history"):
// file-history/<session>/<backup>@v<N>, the copy of a file Claude Code
// kept before editing it (the backupFileName and version of a
// transcript's file-history-snapshot trackedFileBackups): "file backup:
// <backup> version <N> (<size> bytes)" (record id
// "<session>#backup-<name>"), at the file's mtime; the contents (the
// user's file as it was) are never printed.
//
// claude-code/last-session (targets "claude-json" and "settings-backups",
// parse_last_session.go): ~/.claude.json, .claude.json.backup and the
// copies Claude Code keeps under .claude/backups/.claude.json.backup.<epoch
// ms>: projects[<path>].lastSessionId, written when an interactive session
// ends, with lastCost, lastDuration, lastAPIDuration, lastLinesAdded/
// Removed, lastTotal{Input,Output,CacheCreationInput,CacheReadInput}Tokens,
// lastTotalWebSearchRequests and the lastModelUsage model names: one
// system row per project and file, "last session of project <path>
// (<file>): cost $<n>, duration <n> ms, ...", ProjectPath the project key,
// record id "<session>#last-session <path> in <file path>" (each backup is
// its own statement, so the session lists every file naming it), at
// lastStartTime (epoch ms, the session's start) when recorded, else at the
// file's mtime. Checked on the files Claude Code 2.1.332 wrote here in
// interactive sessions under a pseudo-terminal (fixtures/roots/
// deleted-by-agents, scripts/gen-deleted-fixtures.sh, where it is what
// still names the session whose transcript was removed; its one
// .claude/backups/ copy was taken before any session, so the backup case
// is a synthetic test); print mode (-p) writes no lastSessionId. An entry without
// lastSessionId gives no row (its settings are claude-code/settings'); a
// lastSessionId that is not a string, or a projects member cut short, is
// a problem row.
//
// The three are Spec.Trace: they outlive the transcript (the 30-day
// cleanup, a deleted project folder), so a session only they name reads
// recovered trace in sessions.jsonl, source_files the leftovers naming it.
//
// # Evidence
//
//   - Claude Code 2.1.332 (@anthropic-ai/claude-code) run here against a
//     scripted loopback model: fixtures/roots/real-agents (scenarios basic,
//     resume, edit, denied, permission-denied, permission-rule-denied,
//     subagent, subagent-background, api-error, killed, and
//     sessions/<pid>.json); TestRealAgentTranscripts checks every scenario
//     of real-agents.expect.json, TestRealAgentRecordsAccounted every
//     record and the skip counts.
//   - Real transcripts copied byte for byte in shared/agent-samples/
//     claude-code (SOURCES.md): marot/spotter 035dfd363ef902015abb5d8c30eaa1c6af2b5b6d
//     and 53a088d2335599db2a99d1099be22152d1785d6f (2.1.38, 2.1.39; the
//     agent_progress shape), tomjnsn/agentlogs 27921c03abfc8a4c88331cdddab81ce5ef09fb90 and
//     ee4e21fe0030f66dc338726d24abefa474f1139f (2.0.13 to 2.1.3).
//   - Record shapes from public reports and notes, each checked only
//     against a synthetic fixture here: bridge_status with url
//     (d-kimuson/claude-code-viewer issue 213, 2.1.156); bridge-session
//     {bridgeSessionId, lastSequenceNum} and the line types' append table
//     (notes on the 2.1.251 bundle; anthropics/claude-code issue 88233);
//     scheduled_task_fire {taskId, cron, content} and the /loop wakeup
//     (public test fixtures quoting 2.1.276 transcripts);
//     continued-in {continuedInSessionId}; teleported-from
//     {remoteSessionId, messageCount} (anthropics/claude-code issue 84988);
//     environment.snapshot.scratchpadDirectory; /branch and forkSession's
//     forkedFrom {sessionId, messageUuid} and --fork-session's unmarked
//     re-stamped copy (qlan-ro/mainframe docs/research/2026-07-25-todo-246-claude-fork.md
//     at e2256aa674c086718c9ece24f1040e312ffcf5d6, Claude Code 2.1.219);
//     the 1.0.x resume copying records under other session ids
//     (sasazame/ccresume pull request 1, anthropics/claude-code issue 4926);
//     the numeric-key message (anthropics/claude-code issue 24663);
//     <session>.ccr-tip.json {eventId, updatedAt} and bridge-pointer.json
//     beside the transcripts (the reserved project-folder names of the
//     2.1.251 bundle); .claude.json remoteControlMachineId,
//     projects.<path>.remoteControlSpawnMode, hasRemoteEnvironment and
//     githubWebConnectionStatusCache.status (public config-key notes).
//   - The <persisted-output> stub wording and the tool-results/<tool use
//     id>.txt location: anthropics/claude-code issue 23948.
//   - Row wordings: shared/seeds/agents-catalog.md (claude-code).
//
// # Not read, and why
//
//   - session-keys (<pid>.<sha>.key) and .credentials.json: secrets.
//   - the config target (agents, commands, skills, plans, plugins,
//     shell-snapshots, session-env) and CLAUDE.md: the seed lists no rows
//     for them (shell-snapshots are named by time, not session;
//     session-env/<session>/ is left for a later trace parser).
//   - agent-<id>.meta.json beside a subagent file (agentType, description,
//     toolUseId): the seed lists no row; the subagent's own rows and the
//     parent's Task/Agent call carry the same facts.
//   - A --fork-session copy cannot be told from its original (no marker,
//     same uuids and times): each record is written once, but the tie
//     between the two files goes to the merge order, not to the parent.
package claudecode

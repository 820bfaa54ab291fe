// Package cursor reads the files of Cursor (the IDE and its Agent CLI).
//
// Evidence. Cursor is closed source and no real Cursor file was available
// here (no shared sample, no real-agent fixture when this was written; the
// real-agent test skips until fixtures/roots/real-agents holds one). The
// shapes come from the project's own notes (shared/seeds/agents-catalog.md
// "cursor", shared/research/agent-formats.md section 4, the cctop seed)
// and from community readers, read through the public code index:
// kenn-io/agentsview internal/parser/cursor.go and cursor_test.go
// (31e32ce49463dc1f7392e81279633152013974a9: transcript JSONL lines, the
// <timestamp> tag "Thursday, Jul 2, 2026, 11:11 AM (UTC-4)" with hour,
// half-hour and zero offsets, subagents/ folding), wrick17/cursor-metrics
// src/conversation-messages.ts (b94883b33a6bc2eae9570ca5316133c533a389b5:
// fullConversationHeadersOnly order, bubble text / Lexical richText,
// modelInfo.modelName, toolFormerData name/params/status), a cursor-metrics
// backfill reader (composerHeaders table columns composerId, workspaceId,
// createdAt, lastUpdatedAt, value), dmwyatt/ccs README (key families and
// ai-code-tracking.db tables) and the Cursor docs page
// https://cursor.com/docs/reference/permissions (permissions.json fields).
// The permission-prompt fields of toolFormerData (userDecision,
// selectedOption, appliedAllowlistOptionIds, additionalData.status) and
// the composerConvHeaders chunks follow the wording of the seed and the
// issue; the synthetic fixtures in testdata are built on those shapes.
//
// # cursor/state-db (target "state-db", User/globalStorage/state.vscdb)
//
// SQLite, tables ItemTable and cursorDiskKV (key TEXT, value BLOB of
// JSON). SourceLine is the rowid of the cursorDiskKV (or composerHeaders,
// ItemTable) row a record came from.
//
//   - composerData:<id>: "session name: <name>" at createdAt; the header
//     list fullConversationHeadersOnly [{bubbleId,type}], or when that is
//     empty the composerConvHeaders:<id>:<NNNNNN> chunks (3.26+) in key
//     order, or for _v 3 the inline conversation[]; "conversation
//     archived" (isArchived, or the header's) at lastUpdatedAt (inherited);
//     "unsent draft: <text>" for a non-empty input box at lastUpdatedAt. A
//     composer listed in another's subComposerIds is folded into that
//     parent: its rows carry the parent's id, after "subagent <id> of
//     <parent>", and its user bubbles read "subagent prompt: <text>".
//   - bubbleId:<composer>:<bubble>, in header order: type 1 is a user row
//     (text, else the Lexical richText); its modelInfo.modelName gives
//     "model: <id>" at the first user message and "model: <old> -> <new>"
//     on a change (a composer whose user messages name none gets "model:
//     <modelConfig.modelName>" at its start). Type 2 gives thinking rows
//     (thinking.text, allThinkingBlocks), an assistant row (text) and for
//     toolFormerData a tool_use row (ToolUseID toolCallId, else the bubble
//     id; ToolInput rawArgs or params; Text the command, path, URL or
//     pattern), a "permission decision: <Run|Skip|Always run> source=user"
//     row joined on the call id when the user answered a prompt
//     (selectedOption or userDecision; Always run when
//     appliedAllowlistOptionIds is set), "permission prompt pending:
//     <command>" when additionalData.status is pending, and a tool_result
//     row from result (a terminal result's output with "exit code: N"),
//     IsError from status error/cancelled, a non-zero exit code or Skip.
//     Assistant, thinking and tool_use rows carry the model. Times are
//     createdAt (ISO text or epoch ms, else timingInfo.clientStartTime); a
//     bubble without one inherits the previous bubble's or the composer's
//     time. A bubble or composer whose JSON is bad is a Problem; the rest
//     goes on (a composer whose JSON is bad still gives its bubbles).
//   - composerHeaders table (and the older ItemTable composer.composerHeaders
//     list): one row per composer; it outlives a deleted conversation. A
//     header whose composerData is gone gives "session name:" and
//     "conversation deleted" (at the header's lastUpdatedAt, inherited),
//     any stray bubbles left for it, and its agent transcript; the session
//     is marked Recovered "yes" (bubbles or transcript found) or "partial"
//     (only the header).
//   - The agent transcripts of the same home (the home is what precedes
//     .config/Cursor, Library/Application Support/Cursor or
//     AppData/Roaming/Cursor, and .cursor*/projects): the transcript of a
//     conversation this database holds is dropped (the database is the
//     richer copy); that of a deleted one is emitted as above; that of one
//     the database never knew (an Agent CLI session) is emitted too. All
//     transcript rows are Secondary with SourceFile the transcript.
//   - ItemTable settings blob (key ...persistentStorage.applicationUser),
//     at the file's modification time: composerState's run-mode, allow
//     and deny list keys (yolo*, *Allowlist, *Denylist, autoRun*, mcp
//     allowed tools and the like) as "permission setting: <key>=<value>
//     (from <file>, file mtime)", one row per list entry; and "model last
//     used: <model> (<features>)" from aiSettings.modelConfig. Keys that
//     look secret are never read; cursorAuth/* and the cached tokens are
//     other ItemTable keys and are not queried.
//
// # cursor/transcript (target "agent-transcripts")
//
// .cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl (also flat
// <id>.jsonl and nested <id>/transcript.jsonl; <id>/subagents/<sub>.jsonl
// folded into <id> after "subagent <sub> of <id>"). Lines
// {"role","message":{"content":[...]}} carry no time: a user text's
// leading <timestamp>Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)</timestamp>
// dates it to the minute (converted to UTC) and later rows inherit that
// time (TimeInherited; TimeNone before the first). <user_query> is the
// user row (in a subagent file "subagent prompt:"); other user text is
// "injected context:". Assistant text is an assistant row ("[REDACTED]"
// alone is a thinking row), tool_use and tool_result blocks are rows
// (Cursor writes tool_use without results and often without an id),
// {"type":"turn_ended"} with a status other than success is "turn ended:
// <status>". Every row is Secondary. The file is read here only when no
// global state.vscdb of the same home was collected (otherwise that parser
// reads it, see above); a subagent's top-level copy and the older of two
// copies under two project slugs are skipped.
//
// # cursor/ai-tracking (target "ai-tracking", ai-code-tracking.db)
//
// ai_code_hashes: "ai code: <fileName> source=<source> model=<model>
// hash=<hash>" at timestamp (ms), SessionID conversationId;
// conversation_summaries: "conversation summary: <summary>";
// ai_deleted_files: "file deleted by agent: <path>"; scored_commits:
// "scored commit: <hash>" with its line counts. Columns are read by name
// (the last three tables were empty on every install seen, so their
// column names are guesses over several spellings).
//
// # cursor/conversation-search (target "conversation-search")
//
// conversation-search.db: "conversation index: <title>" per row of each
// plain table naming a conversation id (the schema is not documented
// publicly; full-text shadow tables are skipped).
//
// # cursor/cli-config (targets "cli-config" and "project")
//
// .cursor/cli-config.json (permissions.allow/deny, approvalMode, sandbox
// keys only; authInfo is never read), .cursor/permissions.json
// (terminalAllowlist, mcpAllowlist, autoRun; JSONC) and a project's
// .cursor/cli.json: "permission setting: <file stem>.<key>=<value> (from
// <file>, file mtime)", one row per list entry.
//
// Not done: tokens and cost (never estimated; Cursor records none that
// are reliable); the older <uuid>.txt transcripts (not collected by the
// catalog glob); state.vscdb.backup; workspaceStorage state.vscdb
// (composer.composerData, aiService.prompts); the JSON agentKv:blob:*
// prompts of a deleted composer; cloud agents (cloudAgentRepository.*),
// GitHub sign-in, remote agent host, MCP OAuth and plugin rows of the
// settings blob; mcp-oauth-attempts/*.json; the Agent CLI's chats store.
package cursor

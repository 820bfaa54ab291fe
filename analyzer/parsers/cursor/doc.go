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
// Issue 16's records: the cloudAgentRepository.agents.* entries (bcId,
// name, status, updatedAt, isArchived, repoUrl, branchName,
// modelDetails.modelName) as two community activity readers query them;
// the cursor.plugins.installedIds.<team>|<scope> values
// ([{"id","sources"}] of marketplace ids) and the mcpOAuth.global.* /
// mcpOAuth.secret.* split (server metadata / encrypted tokens, the key's
// suffix literal or base64) from community notes and clean-up scripts;
// agentKv:blob:<sha256> as content-addressed message blobs
// ({role, content[], id, providerOptions}) that a delete leaves behind;
// the Agent CLI's store.db (meta key '0' hex-encoded JSON agentId,
// latestRootBlobId, name, mode, createdAt, lastUsedModel; blobs id/data,
// message JSON or tree nodes of 0x0A 0x20 + 32-byte child ids) from two
// public format guides; the GitHub sign-in keys from VS Code's own source
// (see parser.AuthAccounts). The cloudAgentRepository.mcpAuthResolution,
// cloudEnvironmentTemplate.githubRepos, meta.json, prompt_history.json
// and mcp-oauth-attempts shapes are not public: the seed names them and
// the parsers read several plausible field names (tests are synthetic).
//
// # cursor/state-db (targets "state-db", "remote-state": state.vscdb)
//
// SQLite, tables ItemTable and cursorDiskKV (key TEXT, value BLOB of
// JSON), read through vscodestate.VSCodeState (values bounded; the
// subComposerIds scan stays one json_extract query). SourceLine is the
// rowid of the cursorDiskKV (or composerHeaders, ItemTable) row a record
// came from. Record ids: "<composer>:<bubble>#<k>" (the k-th row of a
// bubble), "#model", "#decision", "#pending" for derived rows,
// "<composer>#name|archived|draft|deleted|model|subagent" for a
// composer's own rows, "agentKv:blob:<sha>#<k>", "cloud-agent:<bcId>#…".
//
//   - composerData:<id>: "session name: <name>" at createdAt; the header
//     list fullConversationHeadersOnly [{bubbleId,type}], or when that is
//     empty the composerConvHeaders:<id>:<NNNNNN> chunks (3.26+) in key
//     order, or for _v 3 the inline conversation[]; "conversation
//     archived" (isArchived, or the header's) at lastUpdatedAt (inherited);
//     "unsent draft: <text>" for a non-empty input box at lastUpdatedAt.
//     Each composer's session reads origin local (it ran in this editor),
//     unless it is a cloud agent's. A composer listed in another's
//     subComposerIds is a subagent: its rows carry its own session id and
//     ParentSessionID the parent's (SessionState too), after "subagent
//     <id> of <parent>", and its user bubbles, which the parent model
//     wrote, are system rows "subagent task: <text>".
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
//     goes on (a composer whose JSON is bad still gives its bubbles). A
//     bubble with no text and no call is a Skip "no_content".
//   - composerHeaders table (and the older ItemTable composer.composerHeaders
//     list): one row per composer; it outlives a deleted conversation. A
//     live composer's header is folded into its rows (Skip "state_only").
//     A header whose composerData is gone gives "session name:" and
//     "conversation deleted" (at the header's lastUpdatedAt, inherited),
//     any stray bubbles left for it, and the JSON agentKv:blob:* messages
//     that name it (searched in SQLite with instr over JSON values only):
//     user (<user_query>) and injected-context rows, assistant, reasoning
//     and tool-call rows, undated (a blob records no time). The session
//     reads recovered yes when a bubble or blob of it survives, else trace
//     (only the header names it, issue 30); either way its agent
//     transcript, when collected, adds its own rows and the session reads
//     yes. ai-code-tracking.db and conversation-search.db only name
//     composers (Spec.Trace): a composer only they name reads trace.
//   - carving (analyzer/parser/sqlitecarve, parse_carved.go): the
//     composerData: and bubbleId: records of cursorDiskKV keys no longer
//     live, recovered from state.vscdb's freed space and stale WAL frames,
//     give the rows live records give, under the same record ids, each
//     marked recovered with its provenance after "recovered record: <key>
//     (<where>)" (record id "<composer>#recovered" or
//     "<composer>:<bubble>#recovered"): a deleted conversation comes back
//     whole (recovered yes; its header is then folded as a live one's), a
//     bubble deleted from a live conversation in its place (partial). The
//     key is UNIQUE ON CONFLICT REPLACE, so every rewrite frees the old
//     record: one whose key is live, or recovered before, is a
//     recovered_copy skip. Recovered records of other key prefixes, and
//     bubbles no live or recovered conversation names, are counted in
//     carve problems.
//   - ItemTable settings blob (key ...persistentStorage.applicationUser),
//     at the file's modification time: composerState's run-mode, allow
//     and deny list keys (yolo*, *Allowlist, *Denylist, autoRun*, mcp
//     allowed tools and the like) as "permission setting: <key>=<value>
//     (from <file>, file mtime)", one row per list entry; and "model last
//     used: <model> (<features>)" from aiSettings.modelConfig. Keys that
//     look secret are never read; cursorAuth/* and the cached tokens are
//     other ItemTable keys and are not queried.
//   - The editor's GitHub sign-in: the github-<login> (access list) and
//     github-<login>-usages keys (also github-enterprise-), through
//     parser.AuthAccounts: "source host: github account <login>" at its
//     last recorded use, "github account <login> used by <extension>
//     (<id>) scopes=..." per usage, "permission setting: github account
//     <login> access for <id>=allowed|denied" per access-list entry.
//   - cloudAgentRepository.agents(.*): per cloud agent (session = bcId),
//     "session origin: remote cursor cloud agent" and "session synced:
//     cursor cloud agent <id> (from state.vscdb <key>)" at createdAt
//     (else updatedAt), "cloud agent: <name> status=<status> [archived]"
//     at updatedAt, "source host: <repoUrl> [branch <branch>]", "model:
//     <modelDetails.modelName>"; the session reads origin remote, synced
//     yes. cloudEnvironmentTemplate.githubRepos: "source host repository:
//     <owner/repo> (cloud agent environment, ...)" per entry, file mtime.
//     cloudAgentRepository.mcpAuthResolution(.*): "permission decision:
//     <answer> mcp server <server> source=user (cloud agent MCP
//     authorisation)" in the agent's session, per object naming a server
//     and an answer (resolution, decision, status; approved/allowed
//     booleans), under or naming the agent's id (bc-…), at resolvedAt
//     when recorded; an entry of another shape is a skipped_record
//     problem. The cloud agent's connection token is never read.
//   - mcpOAuth.global.<server>: "mcp server: <server> url=<url> (OAuth
//     tokens stored)" at the record's own time when it keeps one, else
//     the file's mtime; the key's suffix as written ("[plugin-…]") or
//     base64-decoded; of the value only the server URL (without user
//     information or query). The mcpOAuth.secret.* values are never read.
//   - cursor.plugins.installedIds.<team>|<scope>: "plugin installed: <id>
//     sources=<…> (team <team>, scope <scope>, file mtime)", the scope's
//     folder as the project path when it is a file:// URI.
//
// # cursor/transcript (target "agent-transcripts")
//
// .cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl (also flat
// <id>.jsonl, nested <id>/transcript.jsonl, and the legacy <id>.txt), the
// agent worker's copy of each conversation. Every row is Secondary, the
// parser's own (the engine pairs it with the store's row that repeats it:
// Spec.Secondary declares no window because only the user lines carry a
// time, to the minute, and every other row only inherits it; all rows
// name their conversation, so pairing is within the conversation, one to
// one). Lines {"role","message":{"content":[...]}} carry no time: a user
// text's leading <timestamp>Tuesday, Jul 21, 2026, 1:11 PM
// (UTC+3)</timestamp> dates it to the minute (converted to UTC, time basis
// recorded-minute) and later rows inherit that time; rows before the first
// tag, and every row of a transcript without one, are undated (kept; an
// unreadable tag is a problem). <user_query> is the user row; other user
// text is "injected context:". Assistant text is an assistant row;
// "[REDACTED]" (reasoning Cursor left out) is a system row "reasoning
// withheld in the transcript: [REDACTED]"; tool_use and tool_result
// blocks are rows (Cursor writes tool_use without results and often
// without an id); {"type":"turn_ended"} with a status other than success
// is "turn ended: <status> <error>", a successful one a Skip. Record ids:
// "<file id>:line<n>#<k>" (Cursor keeps none; a transcript is only
// appended to), so the same transcript under two project slugs gives each
// record once. <id>/subagents/<sub>.jsonl is the subagent's own session
// (ParentSessionID <id>, SessionState too), after "subagent <sub> of
// <id>"; its <user_query> is "subagent task:"; a subagent's top-level copy
// <sub>/<sub>.jsonl gives the same rows and record ids (an id seen under
// subagents/ is never a session of its own). The .txt form: records open
// at "user:" or "assistant:" ("A:") lines; "[Thinking] <text>" (one line),
// "[Tool call] <Name>" with "  key: value" argument lines, "[Tool result]
// <Name>" with the result text, the rest reply text; SourceLine the
// record's first line. Under WSL the store is in
// /mnt/c/Users/<name>/AppData/Roaming/Cursor and the transcripts in the
// Linux home: the engine pairs them by session all the same.
//
// # cursor/cli-chats (target "cli-chats": .cursor/chats/<md5>/<id>/store.db)
//
// The Agent CLI's own store: meta (key '0') gives "session name:",
// "model last used:" and "run mode:" at createdAt (and "subagent <id> of
// <parent>" when subagentInfo names a parent); blobs are walked depth
// first from latestRootBlobId (tree nodes decoded with protowire: field 1
// children, an embedded JSON message kept) and each message gives rows as
// above (role user/assistant/tool; blocks text, reasoning, tool-call,
// tool-result; the system prompt a Skip), at createdAt (inherited: the
// store keeps no per-message time). Record ids "<id>:<blob sha>#<k>".
// Messages the latest tree no longer reaches (an edited or rewound branch)
// are kept after a system row saying so; a child blob missing from the
// store is an orphan_record problem. Sessions read origin local.
//
// # cursor/cli-chat-meta (target "cli-chat-meta")
//
// meta.json beside store.db: the same session rows as the meta table
// (same record ids). prompt_history.json: the prompts typed, as secondary
// user rows (a string, or an object with text/prompt and an optional
// timestamp), undated when no time is recorded.
//
// # cursor/mcp-oauth-attempts (target "mcp-oauth-attempts")
//
// User/globalStorage/mcp-oauth-attempts/<uuid>.json: "mcp oauth attempt:
// <server> url=<url> client=<client id> [status=<status>]" at the
// attempt's time, else the file's mtime. The PKCE verifier, state, code
// and tokens are never read.
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
// Not done, with the reason: tokens and cost (never estimated; Cursor
// records none that are reliable); the remote agent host enrolment row
// (the seed names the record but not its key, and no public reader names
// it: nothing to match without guessing); a cloud agent's cloud-cache row
// and cached text in conversation-search.db (the table's schema is not
// public, and the index rows above are read generically); the cloud
// agents' bcCachedDetails protobuf (no schema; the seed leaves it
// undecoded too); state.vscdb.backup (an older snapshot of the same
// store, whose records would repeat with other content and need a
// per-record version comparison the engine does not do); workspaceStorage
// state.vscdb's composer.composerData and aiService.prompts (legacy
// per-workspace lists, superseded by the global store since 0.4x); the
// CLI's acp-sessions/ store (known only from the shipped bundle).
package cursor

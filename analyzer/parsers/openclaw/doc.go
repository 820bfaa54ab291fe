// Package openclaw parses OpenClaw (formerly Clawdbot, Moltbot): its agent
// databases, shared state database, legacy session files and config,
// under ~/.openclaw, ~/.openclaw-<profile>, ~/.clawdbot or ~/.moltbot,
// and QClaw's under ~/.qclaw: QClaw, Tencent's OpenClaw distribution,
// writes OpenClaw's tree and session format there (kenn-io/agentsview
// internal/parser/qclaw.go and qclaw_test.go at 5386007: agents/<id>/
// sessions/<id>.jsonl with session, model_change and message entries), so
// its files are OpenClaw's rows, told apart by their .qclaw source path
// (the catalog entry openclaw, no agent of its own).
//
// Validated against: a real install of openclaw 2026.9.6 (build eb377ac,
// Linux x64, Node 24.22.3, December 2026), run
// offline here with `agent --local` against a loopback model
// (fixtures/roots/real-agents-4, scripts/gen-real-fixtures-4.sh): the
// agent database, state database and quarantine database schemas are
// the ones that release created (read from its own databases); read
// beside openclaw/openclaw src/state/openclaw-agent-schema.sql at 0b03f83
// (the base DDL; event_zstd and navigation_json come by migration, as the
// release's database shows), the release's bundled
// src/sessions/input-provenance.ts (external_user, inter_session,
// internal_system) and its custom entry types (model-snapshot,
// openclaw.cache-ttl, ...), and the seed's OpenClaw section (source at
// 3b16db7 and 146284a, 2026.10.5).
//
// Parsers:
//
//   - openclaw/agent-db: agents/<id>/agent/openclaw-agent.sqlite (with
//     its -wal, -shm). Its twelve tables are declared (agentStore): one
//     missing, lacking a column its rows need, or failing part way is one
//     problem row naming it and the others are read; a file with none is
//     "not an OpenClaw agent database". transcript_events rows, read per session in seq
//     order, are pi session entries (event_json, or event_zstd
//     decompressed), read through pi's exported session reader
//     (pisession.NewSession with Contract): SourceLine is the row's rowid,
//     RecordID the entry's own uuid ("#<n>" per content block, "#model"
//     for a model switch). A user message is a user row only when its
//     provenance is absent or external_user; one another session or a
//     tool wrote (inter_session) is "inter-session message from <key> via
//     <tool>: ...", in a subagent's session the parent's message is
//     "subagent task: ...", internal_system ones "internal_system message
//     (<tool>): ...". model_change and each run's model-snapshot give the
//     model rows ("model: mock-coder -> mock-coder-2 provider=mock" on a
//     resume with --model); openclaw.cache-ttl and the other cache
//     entries are Skips; every other custom entry is a system row. A
//     refused exec is the tool's own error result (is_error true, "Exec
//     denied (SYSTEM_RUN_DENIED: ...)"). session_windows give the
//     subagent row ("subagent <id> of <parent>", ParentSessionID on
//     every row of the session, resolved through parent_session_key or
//     spawned_by), the session a reset, rollover or fork follows, the
//     channel relay ("session relayed: channel=..."), the end status;
//     session_nodes.entry_json the model and auth-profile overrides,
//     permission settings (permissionMode, execHost, execNode, execCwd,
//     execSecurity, execAsk, elevatedLevel, sendPolicy, execApprovals,
//     permissions), the delivery route, a public share grant (token
//     redacted; the session reads synced yes), the archive marker, the
//     label, how it was created; session_pending_inputs the prompts
//     accepted that never reached the transcript (user row, then
//     "prompt accepted but not in the transcript: state=..."); the search
//     index's session_transcript_fts_content the entries the transcript
//     lost (secondary rows; the ones the transcript holds are Skips);
//     conversations and session_conversations the channel conversations
//     and each session's relay; conversation_deliveries the channel sends
//     and the replies they got; session_transcript_archives every reset
//     or deleted transcript, published or not (a row naming it, then its
//     entries from the blob); session_transcript_cold_archives kept in
//     the database (their entries) or in a file; memory_session_tombstones
//     the sessions forgotten from memory; trajectory_runtime_events each
//     run's invocation (argv) and end as rows, its submitted prompt, tool
//     calls and results as secondary copies of the transcript's (paired
//     within one minute).
//   - openclaw/state-db: state/openclaw.sqlite: exec_approvals_config
//     (the standing exec policy, per-agent policies and allowlists; the
//     approval socket's token in raw_json is never read into a row),
//     operator_approvals (request and decision, with the tool call id),
//     operator_approval_standing_grants (later releases),
//     channel_pairing_allow_entries, channel_ingress_events,
//     github_publication_requests, backup_runs, subagent_runs and the
//     config-audit diagnostic_events (each openclaw.json write with the
//     command line that made it and the settings it changed). Every
//     credential-named column or JSON key is redacted.
//   - openclaw/quarantine-db: state/openclaw-quarantine.sqlite:
//     quarantined_databases and agent_integrity_verifications.
//   - openclaw/session: legacy agents/<id>/sessions/<id>.jsonl and
//     sessions/cold/*.jsonl.zst (primary); *.jsonl.reset.*,
//     *.jsonl.deleted.* (zstd or not), *.checkpoint.<uuid>.jsonl and
//     *.jsonl.pre-doctor-*-repair-*.bak are secondary copies (one second
//     window: they keep the entries' timestamps), each preceded by a row
//     naming the copy. 2026.9.6 wrote none of these files.
//   - openclaw/config: openclaw.json and openclaw.json.bak* (a secret
//     file: only tools.exec/tools.elevated policy values, tools
//     profile/allow/deny, the default model and workspace, each model
//     provider's api and baseUrl, the channel names are read; never
//     apiKey, tokens or env).
//
// Not read, and why: auth_profile_store and auth_profile_state
// (credentials); the memory index and embedding tables (derived from the
// transcripts and workspace files); session_members, session_participants,
// session_input_completions, message_tool_run_outcomes, heartbeat_outcomes,
// the goal, progress-card and board tables (not yet: no release here wrote
// them); *.trajectory.jsonl and *.migrated* files (seed); the lock
// databases *.generation-lock.sqlite, *.generation-writer.sqlite and
// *.reindex-lock.sqlite (collected with their journals; 2026.9.6 creates
// them without tables, as SQLite locks) and tmp/openclaw-*/ *.lock.sqlite
// (not collected: empty lock files); the log under /tmp/openclaw/ (outside
// the home). The PostgreSQL engine anchor the seed names (2026.10.5) is not
// in this release and not read.
package openclaw

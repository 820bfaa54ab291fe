// Package opencode reads OpenCode (sst/opencode, now anomalyco/opencode),
// Kilo Code and MiMoCode files. Kilo Code's CLI and MiMoCode (Xiaomi) are
// OpenCode forks that keep the same stores under their own paths
// (.local/share/kilo, .local/share/mimocode), so one package serves the
// three agents: each parser ID is "<agent>/<format>" and its Agent is the
// agent whose catalog targets it matches. MiMoCode's layout is from
// kenn-io/agentsview 5386007 internal/parser/discovery.go (mimoFmt:
// mimocode.db, session infos in storage/session_diff/<project>/) and
// mimocode.go, which reads it with OpenCode's parser; no MiMoCode source or
// release was found (npm view mimocode: 404), so its test is OpenCode's
// tree moved to those paths (TestStorageMiMoCode).
//
// IcodeMate (issue 28) is an OpenCode fork with the same stores under
// ~/.local/share/icodemate (icodemate*.db, storage/), read by icodemate/db,
// icodemate/storage and icodemate/export; its session records are
// storage/session_diff/<projectID>/<ses>.json, where OpenCode has
// storage/session/ (kenn-io/agentsview 538600744d1b87614d3746d36a0966c1f2ac1cad
// icodemate.go and discovery.go icodemateFmt; IcodeMate has no public
// source or npm package, the fixture testdata/icodemate is built from that
// description).
//
// ZCode's CLI (issue 28) keeps OpenCode's session, message and part
// tables in ~/.zcode/cli/db/db.sqlite, read by zcode/db with the same
// reader. Its differences, from kenn-io/agentsview internal/parser/zcode.go
// and zcode_test.go at 538600744d1b87614d3746d36a0966c1f2ac1cad (ZCode has
// no public source or package; the fixture testdata/zcode.sql is built
// from that description): time_created and time_updated hold epoch ms or
// RFC 3339 text (both read); older builds write Anthropic-style part
// blocks, thinking {thinking} (a thinking row), tool_use {id, name, input}
// (a tool_use row) and, in a later user-role message, tool_result
// {tool_use_id, content, is_error} (a tool_result row named by the call it
// answers, never a user row); a model_usage table gives one system row per
// model turn ("model usage: turn <n> via <provider>, status <s>; tokens
// ...; <n> tool calls; <n> ms", at started_at, RecordID
// "<ses>#usage:<turn>"). A session's project_id and workspace_id without a
// directory are not read (agentsview makes "project-<id>" names of them).
//
// # <agent>/db (target "db")
//
// opencode.db (and opencode-<channel>.db) under .local/share/opencode;
// kilo*.db and opencode-*.db under .local/share/kilo. opencode-next.db,
// the pre-release 2.0 store, is read as a secondary source (Spec.Secondary:
// 1 s; the rows it shares with opencode.db carry the same record ids).
// Columns are read by name; SourceLine is the rowid. The tables and the
// columns their queries name are dbStore (parser.CheckStore): session,
// message and part are in every store, the others Optional with the
// versions that lack them; a missing required table or a table lacking a
// column is one problem row naming it and the other tables are read; a
// file with none is "not an OpenCode database".
//
// Identity: a part's rows carry its part id as RecordID (the JSON tree and
// an export keep the same ids, so a migrated copy is one row), a tool
// part's result "<prt>#result", a denial "<prt>#decision"; a
// session_message row its id with "#<n>" per content item; session rows
// "<ses>#title", "#subagent", "#archived", "#permission-<n>",
// "#synced:<url>"; a message's own rows "<msg>#error", "<msg>#noparts". A
// "model:" row depends on the messages before it and carries none (the
// engine merges copies by full value).
//
// Subagents: a child session (parent_id) is a subagent's; its rows carry
// ParentSessionID, a SessionState names the parent, and its user text
// (the prompt the parent's model wrote through the task tool) is the
// system row "subagent task: <text>", never a user row.
//
// Accounting: every message, part, event, project and session row gives
// rows or a skip (step-start, step-finish, snapshot and patch parts,
// encrypted reasoning, empty text, events other than a shared
// session.updated, messages whose rows all come from their parts).
//
//   - session (1.x) and session_v2 (2.0): "session title: <title>" and, for
//     a child session (parent_id), "subagent <id> of <parent>" at creation;
//     the permission column (a Permission.Ruleset) as "permission setting:
//     <permission> <pattern>=<action> (from session <id>)"; time_archived
//     as "session archived"; share_url as "session synced: share <url>". A
//     session in both tables (a migration's copy) gives its session rows
//     from each under the same record ids: the correlate stage keeps one
//     where they agree and names the conflict where not (its messages are
//     read once).
//   - message + part (1.x, data JSON = MessageV2.Info / MessageV2.Part):
//     user text parts are user rows (synthetic parts, the tool output
//     OpenCode injects for @file mentions, are system); assistant text is
//     assistant; reasoning with text is thinking (encrypted-only reasoning,
//     text "", gives none); a tool part is a tool_use (ToolInput
//     state.input, Text the command / filePath / url / pattern / query,
//     apply_patch's file names, a question's text, else state.title) and,
//     when completed or error, a tool_result (state.output or state.error,
//     IsError on error) sharing callID; a rejected call also gives
//     "permission decision: denied source=user" (source=config for a deny
//     rule); a task call's metadata.sessionId gives "subagent <child> of
//     <session>"; file parts "attachment: <name> (<mime>)"; agent, subtask,
//     retry and compaction parts system rows; the text of an assistant
//     message with summary:true is "compaction summary: <text>"; a message
//     error "error: <name>: <message>"; step-start, step-finish, snapshot
//     and patch parts give no row. Assistant messages give "model:
//     <provider>/<model>" at the first and "model: <old> -> <new>" on
//     change; Model on assistant, thinking and tool_use rows is the same
//     string. ProjectPath is the session directory (the assistant's
//     path.cwd when recorded).
//   - session_message (V2 in late 1.x, the message table of 2.0; type
//     column + data = SessionMessage without type and id): user (text,
//     files), synthetic (system), shell (a tool_use "shell" and its
//     output), assistant (content text / reasoning / tool with
//     state.content as the result, error), compaction ("compaction
//     (<reason>): <summary>"), agent-switched, model-switched (a model
//     row). In a 1.x store a session's V1 rows win and session_message is
//     read for sessions without them; in a 2.0 store (session_v2 present)
//     session_message wins and the 1.x tables are read for the sessions it
//     does not hold.
//   - Messages, parts and shares whose session row is gone still give rows
//     (an orphan_record problem names the session). Parts whose message
//     row is gone (a partial migration or a deletion that left the parts,
//     opencode #13654, #13818) give rows from what the part records, role
//     unknown (a text part is the system row "text of a message whose
//     record is gone (role unknown): .."), with an orphan_record problem
//     per lost message; a message with no part left gives "message
//     without parts: role=<role> (its part rows are gone)".
//   - message.part.removed events of the sync log whose part row is gone:
//     the part's last message.part.updated event gives its rows, followed
//     by "part removed from message <id>" (RecordID "<prt>#removed"; Kilo
//     removes its transient progress parts this way).
//   - session_share ({session_id, id, secret, url} columns, or a data JSON)
//     and the event table's session.updated.1 rows whose info.share.url is
//     set: "session synced: share [<id>] <url>" and a SessionState with
//     Synced "yes", once per session and URL (a later record of the same
//     upload is a skip). In a store that keeps shares (session_share,
//     event or share_url), every other session reads Synced "no". The
//     secret is never read.
//   - permission: a project ruleset in a data column gives "permission
//     setting: <permission> <pattern>=<action> (from <db> permission,
//     project <id>)" per rule; the 1.18 table (one saved grant per row,
//     action and resource columns) gives "permission setting:
//     <action>=<resource> (from <db> permission, project <id>)"; at
//     time_updated, ProjectPath the project's worktree.
//   - worktree (early) and workspace (1.18: type, name, branch, directory,
//     time_used): "scratch directory: <dir> (<table> type=.. name=..
//     branch=.. project_id=..)"; project_directory: "project directory:
//     <dir> (project <id>)" (a directory the project was used from).
//   - A call to a tool the session does not offer (removed by a deny rule,
//     or made up) is recorded by OpenCode as tool "invalid" with input
//     {tool, error}: Text is the tool named, and its result is IsError
//     true; Kilo records the original tool and input with an error state.
//
// # <agent>/storage (target "storage")
//
// The JSON tree of OpenCode <= 1.1 (migrated into the database at the 1.2
// start, often incompletely, so both may hold a session):
// storage/session/<projectID>/<ses>.json is the input; its
// storage/message/<ses>/*.json and storage/part/<msg>/*.json are opened as
// related files (rows name them as SourceFile, SourceLine 1), and the
// older project/<slug>/storage/session/{info/<ses>.json,
// message/<ses>/<msg>.json, part/<ses>/<msg>/<prt>.json} layout and
// inline parts arrays are read the same way. Rows as for the database.
// storage/session_share/<ses>.json ({id, secret, url}) gives one "session
// synced: share <id> <url> (from session_share/<ses>.json, file mtime)" row.
//
// # <agent>/export (target "storage")
//
// The output of `opencode export <session>`: {info, messages:[{info,
// parts}]}, the same message and part shapes; SourceLine is the 1-based
// index in messages. Matched on storage JSON not named ses_/msg_/prt_;
// another JSON shape gives nothing.
//
// # opencode/tui-state, kilo-code/prompt-history
//
// .local/state/<agent>/prompt-history.jsonl ({input, parts, mode}; no time,
// no session): secondary user rows with TimeNone ("!" prefixed in shell
// mode; an empty input is a skip). prompt-stash.jsonl: secondary "prompt
// stashed: <text>" rows. session.json (the TUI's session store in
// Global.Path.state: {pinned} in Kilo, with dismissedRecent and
// recentOrder in later OpenCode builds; a deleted session is pruned from
// it): one secondary system row per entry, of that session, at the file
// mtime: "session pinned in the TUI", "session dismissed from the TUI's
// recent list", "session opened in the TUI: rank <n> of <total> in the
// recent list".
//
// # kilo-code/sandbox (target "sandbox")
//
// .local/state/kilo-sandbox-policy/<sha256(session id)>/snapshot.json
// ({enabled, mode, version}: the confinement a session runs under, mode
// the network rule) and the older <sha256(dir)>.json beside it: "sandbox
// policy: enabled=<b> network=<mode> version=<n> (session <id>, matched by
// its sha256)" when the sha256 of a session id the collection names
// (storage/**/ses_*.json) matches, else "(for the session whose id has
// sha256 <h>)". .local/state/kilo-sandbox-preference/<sha256(dir)>.json
// (true or false): "sandbox preference: enabled=<b> for the project whose
// directory has sha256 <h>". At the file mtime.
//
// # kilo-code/retention (target "retention")
//
// .local/share/kilo/retention/state.json, the last session-retention pass
// ({at, scanned, deleted, skippedActive, failed, durationMs}): "session
// retention: a pass deleted <d> of <n> session(s) (<s> skipped as active,
// <f> failed, <ms> ms; from <file>)" at its time: sessions were removed
// from the store then.
//
// # kilo-code/log (target "logs")
//
// .local/share/kilo/log/*.log ("LEVEL  <UTC time to the second> +<n>ms
// key=value ... message"): the remote control lines only (service
// kilo-sessions: "remote connection enabled|disabled", "remote not
// enabled", and the relay socket's "remote-ws ..." lines): "remote
// control: <message> [<key=value> ...] (<level>, service <service>)" at the
// line's time, a token query value masked. Every other line is a skip.
//
// # <agent>/config
//
// .config/opencode/*.json(c), .config/kilo/*.json(c), JSONC: "permission
// setting: <key>=<value> (from <file>, file mtime)" per leaf of permission
// and agent.<name>.permission / mode.<name>.permission, "model setting:
// <model> (from <file>, file mtime)". No other key is read.
//
// # kilo-code/extension-tasks
//
// The VS Code extension's tasks/<id>/api_conversation_history.json before
// Kilo moved to the OpenCode-based CLI: an Anthropic MessageParam array
// (Roo Code / Cline fork). SourceLine is the element index; ts (epoch ms)
// when present, else the last ts (TimeInherited) or TimeNone; session id is the task folder; ProjectPath
// from the "# Current Workspace Directory (<dir>)" line of the injected
// environment details. <task>/<feedback>/<user_message> wrappers are
// unwrapped into user rows; <environment_details> and other injected
// blocks are system; tool_use/tool_result blocks pair on their ids, and
// "[tool for 'x'] Result:" texts are id-less tool results.
//
// # Evidence
//
//   - Real agent runs here (fixtures/roots/real-agents-2, the
//     gen-real-fixtures-2 scripted loopback model): OpenCode 1.18.33
//     (opencode.db: session, message, part, session_message, session_share,
//     event, permission {action, resource}, workspace, project_directory)
//     and Kilo CLI 7.7.7 (kilo.db, the same tables plus kilo_board; the
//     storage/ tree holds only session_diff/ and migration files).
//     Scenarios basic, edit, denied (bash deny rule), subagent (task),
//     api-error retry and killed; the resume run exited 1 and stored
//     nothing.
//   - Real samples (../shared/agent-samples/opencode, SOURCES.md there):
//     `opencode export` output of opencode 1.1.13 (tomjnsn/agentlogs
//     crud.json @28e95b16, all-tools.json @9cd9938c).
//   - Source (issue 16 items): Kilo-Org/kilocode
//     packages/opencode/src/cli/cmd/tui/context/local.tsx @0b2a7a559f68
//     (session.json {pinned}; OpenCode's dismissedRecent and recentOrder as
//     in the local.tsx versions of the code index),
//     packages/opencode/src/kilocode/sandbox/store.ts @a22dae2d8e33 and
//     sandbox/preference.ts (the code index),
//     packages/opencode/src/kilocode/session/retention.ts @348373ce3241,
//     packages/opencode/src/kilo-sessions/kilo-sessions.ts @00c30f1cc70d and
//     remote-ws.ts @08c0ef29bada (the remote control log lines).
//   - Source: anomalyco/opencode packages/opencode/src/session/session.sql.ts
//     @063e8306d989 (session, message, part, todo, session_message,
//     permission tables), packages/core/src/session-message.ts
//     @7d5e0bc00a0f (the SessionMessage union stored in session_message);
//     Kilo-Org/kilocode packages/opencode/src/session/session.sql.ts and
//     projectors.ts @18369fa08ad4 (how sessions, messages and parts are
//     projected into the tables); the session_share table shapes (data
//     JSON, later id/secret/url columns) from OpenCode share.sql.ts
//     versions in the code index; the message and part JSON shapes
//     (MessageV2) as seen in the real samples. The seed catalog cites 907b3bc
//     (1.x) and cb07c55 (2.0.32).
//   - Not confirmed on a real store: session_v2 (2.0) and session_message
//     rows (empty in both real stores), share and event rows with a share
//     URL (sharing was disabled in the runs), the worktree table, the JSON
//     tree, the prompt-history / prompt-stash line shapes, session.json,
//     the sandbox files, retention/state.json and the remote control log
//     lines (the real Kilo logs hold none). Synthetic fixtures in testdata/
//     (.sql built by parsertest.SQLite) cover them. The removed parts of the
//     sync log were seen in the real Kilo 7.7.7 store (its transient
//     "Initializing snapshot" parts).
//
// Deleted sessions (issue 30): the db parser runs the SQLite carver
// (analyzer/parser/sqlitecarve) over the store and its WAL. Recovered
// session, message and part records give rows as live ones do, under
// their own ids, each after a system row "recovered record: <table> <id>
// (<where>)" (or "partially recovered record", with what was lost); a
// session known only from them reads recovered yes in sessions.jsonl, a
// live one with recovered records partial. A recovered record whose id is
// live (an older version: opencode rewrites messages and parts as they
// stream) is a recovered_copy skip; recovered event, event_sequence,
// project, project_directory, workspace and migration records are
// no_evidence skips (the session tables give their evidence). Seen on a
// real 1.18.33 store after `opencode session delete`
// (fixtures/roots/opencode-deleted): the session, its 3 messages and 8
// parts came back whole from the freeblocks of the live leaves.
//
// Sessions that existed but are gone (recovered trace): a session the
// store's log folder (log/*.log beside the database) names, with no live
// or recovered row, reads recovered trace (with --no-carve, the deleted
// fixture session reads so). Its first row is "session existed: created
// (slug, version, projectID, title)" from its created line
// (session/index.ts log.info("created"), whose directory is its project
// and parentID its parent), or, when the log rotated that line away,
// "session existed: named by the opencode log (message M), its created
// line not kept" from the first line of its session loop that names it
// (session.id=, sessionID=); a second row "session last named by the
// opencode log (message M): N line(s) name it" at the latest such line
// gives the span the log saw. The TUI's session.json (pinned and recent
// sessions; opencode/tui-state and kilo-code/prompt-history are
// Spec.Trace) names sessions too: one it alone names reads trace.
// A session the legacy storage/ JSON still holds reads yes (the
// correlation pass lets the db parser's trace give way to another file's
// turns).
//
// Not done: nothing the seed lists. The sandbox hashes are reversed only
// for the session ids the collection names (a directory hash is not: no
// file lists Kilo's project directories beside them).
package opencode

// Package copilotdesktop parses GitHub Copilot Desktop's own state under
// ~/.copilot. The app's session logs (session-state/<id>/events.jsonl and
// workspace.yaml, written by its bundled Copilot CLI) are read by the
// copilot-cli parsers and share session_id with the rows here.
//
// Parsers (IDs "copilot-desktop/<format>"):
//
//   - data-db: .copilot/data.db (SQLite with WAL sidecars; the engine
//     opens a private copy with them). One system row per record, SourceLine
//     the rowid, at the record's created_at (else added_at, timestamp,
//     started_at, requested_at, updated_at; ISO text or epoch s/ms/µs):
//     accounts -> "account: <login> k=v ..." where every column naming a
//     token, secret, password, key or credential is shown only as
//     present/absent, never its value;
//     settings -> "desktop settings: <key>=<value> (from data.db, file
//     mtime)" at the file's modification time (secret-looking keys
//     [redacted]);
//     model_providers -> "model provider: k=v" (api keys present/absent);
//     projects -> "project added: k=v" with project_path the clone's
//     main_repo_path; worktrees -> "worktree: k=v"; workspaces ->
//     "workspace: k=v" (source and created pull request URLs);
//     sessions -> "desktop session: title=.. model=.. auto_approve=..
//     permission_mode=.. remote_control..=.. archived=.. ..." with
//     session_id the session id and project_path through
//     workspace_session_aliases -> workspaces -> projects (or the
//     worktree), plus "forked from session <parent>" for a fork and
//     "desktop session archived" at archived_at;
//     activity_items, session_checkpoints, my_copilot_scheduled_tasks,
//     my_copilot_scheduled_task_triggers,
//     my_copilot_scheduled_task_invocations, session_automations and
//     session_deletion_intents -> "activity:", "session checkpoint:",
//     "scheduled task:", "scheduled task trigger:", "scheduled task run:",
//     "session automation:", "session deletion intent:" rows of k=v.
//     Columns are read BY NAME and none is required (their names are not
//     published), so other app versions parse; a table of these that is
//     missing is one problem row naming it (none is known to be absent
//     from a release), a file with none of them is "not a Copilot Desktop
//     data database", and a table whose read fails is named and the next
//     read; other tables (the real 1.1.30 database has 104) are not read. RecordID is "<table>/<id>" (settings by key,
//     deletion intents by session_id), "#forked" and "#archived" for the
//     rows derived from a session; a fork's session state carries
//     forked_from. workspace_session_aliases rows are a join (the sessions'
//     project path) and each is a skip "state_only"; every other record
//     read gives a row.
//
//   - checkpoint-ref: one git ref file
//     .copilot/repos/<name>/.git/refs/copilot/checkpoints/<session id>/<seq>/<event id>
//     -> "checkpoint ref <seq>: commit <hash> event <event id> (file mtime)"
//     at the file's modification time, session_id from the path, RecordID
//     "<session id>/checkpoint/<seq>". The refs outlive a session deleted
//     from the app.
//
// Evidence: the table names, the checkpoint ref layout and the row
// wordings come from the seed catalog's notes on the shipped app
// (/usr/bin/github strings and the bundled SDK declarations) and real
// installs of Copilot Desktop 1.1.29 (Ubuntu 26.04 arm64, 2026-10-16) and
// 1.1.30 (Windows 11 ARM64, 2026-10-17; PRAGMA user_version 194). The
// column names are NOT published and were not seen here: the .sql
// fixtures in testdata use plausible columns following the seed's wording
// (login, oauth_token, key/value, main_repo_path, worktree path and
// branch, source/created pull request URLs, model, auto_approve,
// permission_mode, remote_control_enabled, archived, archived_at,
// forked_from_session_id, ...). The data.db shapes are seed-derived and
// fixture only; no real data.db or checkpoint ref was available.
package copilotdesktop

// Package chatgptdesktop reads what the ChatGPT desktop app (OpenAI's
// combined ChatGPT and Codex app, closed source) keeps locally about the
// account's ChatGPT conversations: their list, not their text, which stays
// on OpenAI's servers.
//
// # Parser
//
// chatgpt-desktop/thread-catalog reads .codex/sqlite/codex-dev.db (SQLite
// with WAL sidecars), the app's own database. The catalog files it under
// codex-cli, target "state-db" (glob {.codex,.codex-*}/{*.sqlite,sqlite/
// *.db,...}), because it sits under ~/.codex; so the parser's Agent() is
// "codex-cli" and it matches that target with the base name codex-dev.db,
// but every row and session state it emits carries Agent "chatgpt-desktop".
//
// Of the local_thread_catalog table only the rows whose source_kind is
// "chatgpt" are read: each is one of the account's ChatGPT conversations
// (a chat on chatgpt.com or in the app's ChatGPT mode), listed there at
// sign-in. Each gives three system rows at the row's source_updated_at
// (SessionID the conversation id, thread_id; SourceLine the rowid):
//
//   - "account conversation: <title> conversation_origin=<origin>
//     created=<source_created_at> updated=<source_updated_at>
//     host_id=<host_id>" (title from display_title, else title; the
//     origin from a conversation_origin column, else the key of that name
//     in a source_detail JSON object, else "-");
//   - "session origin: remote chatgpt.com conversation <id>";
//   - "session synced: chatgpt.com holds conversation <id>, no local
//     transcript";
//
// and a session state with Origin "remote" and Synced "yes". RecordID is
// "<conversation id>#conversation", "#origin", "#synced". The rows of
// other kinds (vscode: the app's Codex-mode threads) are counted as Skip
// "read_by:codex-cli/rollout": their rollouts under ~/.codex are read by
// the codex-cli parsers. A chatgpt row without thread_id is a
// skipped_record problem. Times are
// epoch seconds, epoch milliseconds (a value above 1e12) or RFC 3339 text;
// a row without a readable source_updated_at falls back to
// source_recency_at, then source_created_at, else it is undated
// (TimeBasis "none"). Columns are read by name and any may be missing; a
// database without the table gives no rows and no problem.
//
// # Evidence
//
// The seed (agents-catalog.md, chatgpt-desktop) describes real installs:
// ChatGPT 26.1013.40934 on macOS 26.6.2 (2026-10-18) and 26.1007.9446.0 on
// Windows 11 (2026-10-15). No sample of the database was available here:
// the column names (host_id, thread_id, display_title, source_created_at,
// source_updated_at, source_recency_at, cwd, source_kind, source_detail,
// model_provider, git_branch, observation_sequence, missing_candidate) are
// those public third-party tools read and write in this table (found with
// the code search, not run), and the tests use synthetic .sql fixtures
// only. Fixture only.
package chatgptdesktop

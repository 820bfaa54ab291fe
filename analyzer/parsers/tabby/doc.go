// Package tabby parses the Tabby (TabbyML) server's database, event log
// and model configuration, and the clients' inline-edit command histories.
//
// Validated against: TabbyML/tabby source at 21b29048 (2026-06-30;
// ee/tabby-db/schema/schema.sql, ee/tabby-db/src/{threads,user_events,
// attachment}.rs, ee/tabby-schema/src/dao.rs, ee/tabby-webserver/src/
// service/event_logger.rs, crates/tabby-common/src/api/event.rs,
// crates/tabby/src/services/event.rs, crates/tabby-common/src/config.rs,
// clients/intellij/.../inlineChat/CommandHistory.kt,
// clients/vscode/src/Config.ts); synthetic fixtures built from the schema
// as SQL text. No real install: the server is a Rust binary or a Docker
// image (not reachable here); the tabby-agent npm package is the client
// agent, which writes no history.
//
// Files (under ~/.tabby, or at the root of a Docker or Podman volume
// matching *tabby*, catalog target "volume", without the leading .tabby/):
//
//   - tabby/server-db: ee/db.sqlite or dev-db.sqlite (SQLite with WAL
//     sidecars; SourceLine is the table's id). Only named columns are
//     selected: users.auth_token and password_encrypted,
//     integrations.access_token and the OAuth, LDAP and SMTP credential
//     tables are never read. threads give "thread <id>: owner=<users.email>
//     ephemeral=<bool>" at created_at (session "thread-<id>") and its
//     relevant_questions as "suggested follow-up questions: ..."; each
//     thread_messages row (role user|assistant, DbEnum of thread::Role) is
//     a user or assistant row at created_at (RecordID "message-<id>"), its
//     attachment (code with git_url and filepath, client_code, docs, the
//     code file list) a system row "attachments: ...", its code_source_id
//     "code source: ...". The project is the first code attachment's
//     git_url (Tabby records no local path). A message whose thread row is
//     gone stays, with "message of thread <n>, whose thread row is gone"
//     and an orphan_record problem. pages (AI-written) give "page <id>:
//     <title> (author=...)" and the content as an assistant row, each
//     page_sections row an assistant row "## <title>\n<content>" (session
//     "page-<id>"). user_events (kind completion|select|view|dismiss|
//     chat_completion, payload the Event as JSON) give, for a completion,
//     "completion request <id> language=<l> [file=..] [client=..]\n<full
//     prompt>" and each generated choice as an assistant row; view,
//     select and dismiss "completion <id> <kind> choice=<n> [elapsed=..]";
//     chat_completion "chat completion". integrations give "source host
//     integration: kind= name= api_base= synced= [error=]",
//     provided_repositories "provided repository: <name> <git_url>
//     active=<bool> (integration <name>)". Times are UTC (SQLite
//     DATETIME('now') or sqlx's RFC 3339).
//   - db.backup-YYYYMMDD.sqlite (pre-migration backups): read the same way,
//     every row secondary (window 0: a byte copy with the same ids and
//     times), so threads deleted since the backup stay in the timeline;
//     its thread rows say "(from the pre-migration backup <file>)".
//   - tabby/events: events/YYYY-MM-DD.json, one LogEntry {user, ts epoch
//     ms, event} a line, rendered exactly as the user_events rows
//     (secondary, window 1 s: one LogEntry.ts is written to both). The
//     user is not put in the text of either (user_events has the user's
//     rowid, the log the GraphQL id), so the pair drops as one.
//   - tabby/config: config.toml [model.completion|chat|embedding.local|http]
//     as "model setting: model.<use>.<local|http> <key>=<value> ..." with
//     Model set, at the file mtime; api_key (any key or token field) and
//     the prompt templates are never read.
//   - tabby/jetbrains-history: JetBrains/<product>/options/
//     intellij-tabby-command-history.xml, and the edit.recentlyCommand key
//     of the TabbyML.vscode-tabby row of a VS Code or fork state.vscdb
//     (through vscodestate.VSCodeState): each inline-edit command the user typed
//     is a user row, secondary, with no time and no session (newest
//     first).
//
// Not read yet: the server's other tables (user_completions counts,
// job_runs, web documents, notifications, access policies: no evidence of
// agent use), ~/.tabby/ee/repositories clones and index directories, and
// the client agent's ~/.tabby-client/agent/config.toml (secret kind: a
// server token; its endpoint alone is not evidence of use).
package tabby

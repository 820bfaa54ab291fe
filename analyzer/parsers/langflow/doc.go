// Package langflow reads Langflow's SQLite store: the server's langflow.db
// (in the installed package directory, services/settings/base.py
// set_database_url, unless save_db_in_config_dir puts it in the platformdirs
// cache directory; langflow-pre.db for a pre-release) and Langflow
// Desktop's ~/.langflow/data/database.db, which share the schema.
//
// # langflow/database (targets "server-db", "server-db-windows",
// "server-db-package", "desktop-db", and "volume" for a Docker volume
// *langflow-data holding the config directory)
//
//   - flow: id and name only, to name component runs; flow.data (the
//     components' settings, API keys among them), user, apikey and
//     variable are never queried.
//   - message (MessageTable) in rowid order, SessionID session_id,
//     RecordID the message id: sender "User" is a user row (what was typed
//     in the playground or sent to the run API), "Machine" an assistant
//     row; category "error" or error=1 a system row "error message from
//     <sender_name>: ..."; edit=1 adds "message <id> was edited in the
//     playground" (Langflow overwrites the text: the original is gone and
//     the row says so); content_blocks (a list of ContentBlock, each item
//     an object or, as from_message stores them, JSON text): tool_use
//     contents give a tool_use row (ToolInput tool_input, secret-shaped
//     values redacted) and a tool_result row (output; IsError and the
//     error text when error is set), text contents other than the reply a
//     thinking row (the agent's steps), error contents "error in
//     <component>: <reason>" ("<id>#block<i>.<j>"); files give "file:
//     <path>". A message whose flow row is gone is kept with an
//     orphan_record problem; an empty message is a Skip
//     "no_evidence:empty_message"; unreadable content_blocks or files JSON
//     is a parse problem naming the message.
//   - transaction (TransactionTable), one per component (vertex) run: a
//     system row "component run <vertex> -> <target> in flow <name>:
//     <status>: <error>" with its outputs (redacted); its inputs are not
//     read, since they carry the component's settings and keys. No session
//     (the table keeps only the flow).
//
// Times are SQLModel's naive UTC datetimes (datetime.now(timezone.utc)
// written without the zone; parser.SQLTime).
//
// # Validated against
//
// Source, through the code index: langflow-ai/langflow
// src/backend/base/langflow/services/database/models/message/model.py
// @d6f801e, services/settings/base.py (set_database_url), the transaction
// and flow models beside them; the research's 504c02f and the platformdirs
// cache directory. Synthetic fixture (testdata/langflow.sql); no real
// store: Langflow was not run here, and Langflow Desktop is known from its
// documentation only.
//
// # Not read yet
//
// vertex_build (each component build's data and artifacts), message
// properties (source component, feedback), the file table, the config
// directory's uploaded files.
package langflow

// Package ollama reads Ollama's files: the desktop app's chat store, the
// `ollama run` prompt history and the `ollama launch` settings.
//
// # ollama/app-db (target "app-db")
//
// Library/Application Support/Ollama/db.sqlite (macOS) and
// AppData/Local/Ollama/db.sqlite (Windows), SQLite with WAL sidecars, read
// by column name so schema versions before messages.tool_result (v4) and
// chats.browser_state (v9) through the current ones read alike:
//
//   - chats: a system row "chat: <title>" at created_at (RecordID
//     "chat:<id>"), noting a kept browser tool state by size.
//   - messages, in rowid order, SessionID the chat id, Model model_name,
//     RecordID the message id: user rows; assistant thinking (a thinking
//     row at thinking_time_start, RecordID "<id>#thinking") and content;
//     "model: <m>" at a chat's first model and "model: <old> -> <new>" on
//     each change (RecordID "<id>#model"); tool messages as tool_result
//     rows (IsError when the app wrote "Error: ..."). The store keeps no
//     call id and no tool name on the tool message, so the n-th tool
//     message after an assistant message pairs with that message's n-th
//     tool_calls row: ToolUseID and RecordID "<chat id>:<tool_calls.id>".
//   - tool_calls: a tool_use row per call of its assistant message
//     (ToolName function_name, ToolInput function_arguments); a call whose
//     message is gone is an orphan_record problem with its arguments.
//   - attachments: "attachment: <filename> (<n> bytes, not read)" from
//     length(data); the bytes are never read.
//
// The four tables are declared (appStore, parser.CheckStore): one that is
// missing (attachments is absent before schema 3, not a problem), or
// lacks a column its rows need, or whose read fails part way, is one
// problem row naming it and the others are read; a file with none of
// them is "not an Ollama app database". Without messages each tool call
// is a problem row with its arguments (it is not an orphan).
//
// A message whose chats row is gone (a chat deleted while the app was not
// cleaning up) keeps its rows and gives an orphan_record problem. An
// assistant message with nothing in it is a Skip "no_evidence:empty_message".
// Times are as written by mattn/go-sqlite3 (with the zone offset) or
// CURRENT_TIMESTAMP (UTC); see parser.SQLTime. The settings and users
// tables are not read (no evidence of use; the users table is the signed-in
// account). No project path is recorded.
//
// # ollama/history (target "history")
//
// ~/.ollama/history, readline/history.go: one line per entry, the file
// rewritten whole on every entry and cut to the last 100. Entries carry no
// time and no session: each line is an undated user row (a pasted
// multi-line """ prompt is one row per line), "/..." lines are system
// rows "command: /set ...". One system row at the file's mtime says when
// it was last written. Not a secondary source: no other file holds the
// `ollama run` prompts.
//
// # ollama/config and ollama/claude-profile
//
// ~/.ollama/config.json (cmd/config/config.go): per launch integration
// "model setting: integrations.<name>.models=..." and, where present, the
// automode key "permission setting: integrations.<name>.automode=<v>";
// "model setting: last_model=...". The Claude Desktop profile `ollama
// launch` writes (Claude-3p/configLibrary/00000000-0000-4000-8000-
// 000000000114.json, cmd/launch/claude_desktop.go): its autoModeEnabled key
// only, "permission setting: Claude Desktop autoModeEnabled=<v>"; its
// gateway API key and the other keys are never read into a row. Rows are
// at the file's mtime.
//
// # ollama/manifest (target "manifests")
//
// ~/.ollama/models/manifests/<host>/<namespace>/<model>/<tag>, what
// `ollama pull` or `ollama create` leaves for each model
// (manifest/manifest.go Manifest: schemaVersion, mediaType, config,
// layers; manifest/layer.go Layer: mediaType, digest, size; the path from
// types/model/name.go Filepath). One system row per file at its mtime
// (time_basis file-mtime: when the model was pulled or created, the file
// records no time): "model manifest: <short> (<host>/<ns>/<model>:<tag>),
// <n> layer(s), <bytes> bytes: <kind> <digest> (<size> bytes), ..., config
// <digest> (<size> bytes)", the model field the shortest name ollama shows
// (gpt-oss:20b for registry.ollama.ai/library; DisplayShortest). The
// blobs are not collected; OLLAMA_MODELS is followed by the collector as a
// catalog relocation of .ollama/models. A file that is not JSON, or names no layer and
// no config, is one problem row. The findings' PromptLock detector reads
// the gpt-oss manifests (analyzer/findings/promptlock.go). Synthetic
// fixture (fixtures/roots/promptlock: no model can be pulled here).
//
// # Validated against
//
// Source: ollama/ollama @fb30760996871 (v0.33.0-rc2, 2026-08-21):
// app/store/database.go (schema 18 and the migrations), app/store/store.go,
// app/ui/ui.go (tool messages), readline/history.go, cmd/config/config.go,
// cmd/launch/claude_desktop.go, manifest/manifest.go, manifest/layer.go,
// manifest/paths.go, types/model/name.go. The seed's v0.35.1 (b0c1ca4) and 6787222
// are not in the snapshot read here: the per-integration automode key is
// read as the seed describes it (a JSON value under integrations.<name>),
// not seen in source. Synthetic fixtures (testdata/*.sql built at test
// time); no real db.sqlite (the desktop app does not exist on Linux) and
// no real history file (building the ollama CLI here needs cgo and a
// model server; not done).
//
// # Not read yet
//
// Model blobs, backup/, launch/ and logs/ (the seed excludes them);
// the settings table (agent, tools, websearch and working_dir switches of
// the app): not in the seed's list, a candidate for permission setting rows.
package ollama

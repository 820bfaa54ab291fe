// Package commandcode reads Command Code (npm command-code) files under
// ~/.commandcode (HOME, else USERPROFILE).
//
// # command-code/session (target "sessions")
//
// projects/<slug of the cwd>/<session id>.jsonl. Since the v3 store
// (SessionStoreV3) the first line is a header {type: "session", version:
// 3, id, timestamp, cwd, parentSession} (a Skip "session_header": it names
// the session, its project path and the session it was forked from, the
// ParentSessionID), and every later line an entry {type, id, parentId,
// timestamp}: a tree, so a rewind or a branch leaves the abandoned entries
// in place, each kept as its rows. Entry types:
//
//   - message {message: {role, content, meta}, model, usage}: a user
//     message is a user row unless meta.isMeta or isAutomated marks it an
//     injected input (scheduled tasks, goal continuations), then a system
//     row "automated input, not typed (<source>)"; assistant text an
//     assistant row, reasoning a thinking row, each tool-call a tool_use
//     (ToolName, ToolUseID the call id, ToolInput the input); a tool
//     message's tool-result parts the tool_result rows by call id
//     (IsError for error-text and error-json outputs, which is how a
//     denied permission comes back). RecordID is the entry id, "#<n>" for
//     the second and later rows of one entry. Model is the entry's model.
//   - model_change, effort_change, compaction (its summary and tokens
//     before; the entries before it stay), branch_summary, label,
//     session_info (the session's name), custom and custom_message:
//     system rows.
//   - An unknown type is a skipped_record problem; a message with no text
//     or call a Skip "no_evidence:empty_message".
//
// Older files (no header) are v2 stored entries {id, timestamp,
// sessionId, parentId, role, content, gitBranch, metadata: {version: 2}}
// or v1 lines with Anthropic content blocks (tool_use, tool_result): the
// same rows, the session id from sessionId.
//
// # command-code/session-meta (target "session-meta")
//
// <session id>.meta.json: title (and whether the user renamed it),
// model, and parentSessionId and forkedAt of a forked or branched
// session, at the file's mtime.
//
// # Validated against
//
// The shipped bundle of npm command-code 1.64.0, dist/cli.mjs
// (sessionPaths, sessionSidecarPaths, SessionStoreV3's append* functions,
// isSessionHeaderV3, detectSessionFileVersion, toStoredEntry,
// getProjectsBasePath; the tool-name table). No public source
// repository; kenn-io/agentsview @538600744d1b internal/parser/
// commandcode.go read for the v2 shape (not copied). Synthetic fixture
// from those shapes (testdata/README.md): the CLI needs a Command Code
// login and was not run.
//
// # Not read yet
//
// <id>.checkpoints.jsonl, <id>.prompts.jsonl, <id>.share.json,
// <id>.scheduled-tasks.json and the <id>.v2.bak copy a migration leaves
// are collected, not parsed. Permission decisions other than a denied
// call's error result are not written to the session file by 1.64.0 as
// far as its bundle shows; settings.json's permission rules are in the
// secret-kind config target, not read. COMMANDCODE_PROJECT_DIR and a HOME
// other than the user's move the store (not followed).
package commandcode

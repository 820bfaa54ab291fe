// Package pydanticclai reads Pydantic AI's CLAI: the clai v1 prompt
// history and CLAI 2.0's sessions.db.
//
// # pydantic-clai/prompt-history (target "prompt-history")
//
// ~/.pydantic-ai/prompt-history.txt, prompt_toolkit's FileHistory
// (parser.FileHistory): each entry a user row (a multi-line prompt one
// row) at its "# <datetime.now()>" header, host-local time with no zone,
// so local-as-utc; a "/..." entry (/markdown, /multiline, /cp, /exit) a
// system row "command: ...". clai v1 keeps no conversation on disk, so the
// rows are not secondary.
//
// # Validated against
//
// Source: pydantic/pydantic-ai @4fda389 (2026-08-22)
// pydantic_ai_slim/pydantic_ai/_cli/__init__.py (PROMPT_HISTORY_FILENAME,
// PromptSession(history=FileHistory(...))). Synthetic fixture.
//
// # pydantic-clai/sessions-db (target "sessions-db")
//
// $XDG_CONFIG_HOME/pydantic-clai2/sessions.db, written by
// pydantic-ai-harness's SqliteConversationStore
// (pydantic_ai_harness/step_persistence/conversations.py at 131e227, the
// store CLAI 2.0's tests open on sessions.db): one row per conversation in
// conversations(id, revision, metadata, messages, search_text,
// updated_at). metadata is a ConversationSummary (workspace, title and
// its source, model, outcome, run_id, owner_pid, message_count,
// total_tokens): one system row per conversation at updated_at, its
// workspace the project path. messages is the conversation's pydantic-ai
// ModelMessage list as ModelMessagesTypeAdapter dumps it (pydantic/
// pydantic-ai pydantic_ai_slim/pydantic_ai/messages.py at 4fda389):
// a request's instructions and its system-prompt and instruction parts
// are system rows, its user-prompt parts the user rows (text, media items
// named "[image-url <url>]", never inlined), tool-return and
// builtin-tool-return parts tool_result rows, retry-prompt parts an error
// tool_result (a tool's) or a system row; a response's text, thinking,
// tool-call and builtin-tool-call parts assistant, thinking and tool_use
// rows with model_name; any other part (file, speech, compaction) a system
// row with its JSON, a state other than complete (an interrupted message)
// a system row. A part's timestamp is recorded; a part without one
// inherits its message's. RecordID is "<conversation>/<message>#<n>". A
// message with no parts is a skipped_record problem, undecodable metadata
// or messages a problem (the other rows of the conversation still read).
// A conversation deleted from the browser (DELETE FROM conversations) that
// survives in freed space or the WAL is carved (parser.Carve) and gives
// the same rows marked recovered. Sessions imported from Claude Code and
// Codex are stored in the same shape (converted to pydantic-ai messages):
// nothing in the row marks them, so they read as CLAI's own. Media that
// the store externalized (the media table) and the step store's tables
// (runs, events, snapshots, tool_effects), which may share the file, are
// not read. Synthetic fixture (testdata/sessions.sql), built from the
// writer above; no CLAI 2.0 run here.
//
// # Not read yet
//
// CLAI 2.0's input-history, config.db, mcp.json, orchestrator.json,
// workspace.json and session.log: collected.
package pydanticclai

// Package vibe reads Mistral Vibe (github.com/mistralai/mistral-vibe), the
// terminal agent: one folder per session under ~/.vibe/logs/session
// (VIBE_HOME moves it; session_logging.save_dir in its config too), named
// session_<UTC yyyymmdd_hhmmss>_<short id>, holding messages.jsonl and
// meta.json.
//
// Evidence, read from the agent's own source (github.com/mistralai/mistral-vibe
// at ac8f1a09fdfbadb6d4508a555ba6607fd05eb0dc: vibe/core/types.py LLMMessage,
// ToolCall, SessionMetadata; vibe/core/session/session_logger.py;
// vibe/core/paths/_vibe_home.py), with kenn-io/agentsview
// internal/parser/vibe.go at 5386007 for comparison:
//
//   - messages.jsonl, one LLMMessage per line: role, content (text or a list
//     of parts), injected, reasoning_content, tool_calls ({id, function:
//     {name, arguments}}), name and tool_call_id on a tool message,
//     message_id. A user message is a user row only when not injected (an
//     injected one is context the agent added: a system row); an assistant
//     message gives a thinking row (reasoning_content), an assistant row and
//     one tool_use row per call; a tool message a tool_result; a system
//     message a system row.
//   - meta.json: session_id, parent_session_id (a subagent), start_time,
//     end_time, git commit and branch, environment.working_directory,
//     username, title, model (model, else config.active_model, as
//     agentsview 538600744 vibe.go reads it) and every stats counter
//     (session prompt and completion tokens and steps first, then the rest
//     by name: cached, context, last-turn counters): one system row, and the session,
//     parent and folder every message row of the folder takes, and the
//     model its thinking, assistant and tool_use rows take (none when
//     meta.json names none).
//
// The model: LLMMessage records none, so the one meta.json names is the
// only one there is. Vibe rewrites meta.json at every saved interaction
// (session_logger.py save_interaction dumps the config of that moment),
// and a /model switch (VibeConfig.save_updates active_model, app.py)
// leaves no mark in messages.jsonl: in a session that switched models,
// rows from before the switch carry the later model. Nothing on disk
// tells them apart.
//
// Times: messages carry none; their rows take meta.json's start_time,
// time_basis inherited (none when meta.json is missing or has no time).
//
// Fixture: built from the source above (testdata/home), no real run: Vibe
// is a Python package (PyPI), not runnable here against the loopback mock.
package vibe

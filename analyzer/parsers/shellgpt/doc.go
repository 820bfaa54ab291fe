// Package shellgpt reads ShellGPT (sgpt) files.
//
// # shellgpt/chat-cache (target "chat-cache")
//
// Every file directly under a chat_cache/ folder (%TEMP%\chat_cache or
// %TEMP%\shell_gpt\chat_cache on Windows; /tmp/chat_cache on Linux and
// macOS, outside the home, so given as loose input) is one chat named by
// its chat id (the session id): a JSON array of OpenAI chat messages.
// The first is the role's system prompt, a system row "role: <text>";
// user messages are user rows; assistant content is an assistant row and
// each of its tool_calls a tool_use row (ToolName the function, ToolInput
// its decoded arguments, Text the execute_shell_command shell_command,
// ToolUseID and RecordID the call id); a tool message is the tool_result
// (RecordID "<call id>#output"). Before 1.5.0 an assistant function_call
// {name, arguments} and the function {name, content} message after it
// are paired by position (ToolUseID "<chat>:<message position>"; no id is
// recorded, so RecordID is ""). An assistant message with neither text nor
// call is a Skip "no_evidence:empty_assistant".
//
// ShellGPT records no time, model or working directory in a chat: its rows
// are undated (TimeNone), and one system row at the file's mtime says when
// the chat was last written and that ChatSession keeps only the first and
// the last CHAT_CACHE_LENGTH (100) messages, so older turns of a long chat
// are gone. Whether a --shell reply was then executed ([E]xecute) is not
// recorded anywhere.
//
// # shellgpt/response-cache (target "response-cache")
//
// cache/<md5 of the request>: the text of one completion (calls are never
// cached): a secondary assistant row at the file's mtime. Spec.Secondary
// window 0 (the chat rows it repeats record no time).
//
// # shellgpt/config (target "config", kind secret)
//
// .sgptrc KEY=value lines: DEFAULT_MODEL ("model setting: <model>") and
// OPENAI_USE_FUNCTIONS, DEFAULT_EXECUTE_SHELL_CMD and SHELL_INTERACTION
// ("permission setting: KEY=value"), at the file's mtime. Every other line
// is a Skip "setting_not_read" (never its key or value in a row: the API
// key lives here), "#" lines a Skip "comment".
//
// # shellgpt/functions (target "functions")
//
// functions/<name>.py: "permission setting: function the model may call:
// <name>" (the file is not opened); roles/<name>.json: "role defined:
// <name>"; both at the file's mtime.
//
// # Validated against
//
// Source: TheR1D/shell_gpt @a082bd5327ce (2026-07-02): sgpt/handlers/
// chat_handler.py (ChatSession read/write and truncation), sgpt/handlers/
// handler.py (tool_calls and tool messages; the function_call shape at
// bbd78d0^), sgpt/cache.py (response cache), sgpt/config.py (.sgptrc).
// Synthetic fixtures in testdata/ from those shapes; no real install (the
// tool is on PyPI, which is not reachable here).
//
// # Not read yet
//
// Nothing the seed names is left out. The Linux and macOS chat cache in
// /tmp is outside the catalog's home paths and is read only as loose input.
package shellgpt

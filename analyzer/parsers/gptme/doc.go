// Package gptme reads gptme (github.com/gptme/gptme), the terminal agent:
// one conversation.jsonl per conversation under its logs folder
// ($XDG_DATA_HOME/gptme/logs/<name>/ on Linux, ~/Library/Application
// Support/gptme/logs on macOS, %LOCALAPPDATA%\gptme\gptme\logs on Windows,
// platformdirs user_data_dir; $GPTME_LOGS_HOME moves it).
//
// Evidence, read from the agent's own source (github.com/gptme/gptme at
// d27f98d3a55451491d00bbd20035d328e34219b1: gptme/message.py Message and
// to_dict, gptme/dirs.py, gptme/tools/base.py iter_from_content, the tools'
// block_types), with kenn-io/agentsview internal/parser/gptme.go at 5386007
// for comparison (agentsview drops system messages, so every tool result,
// and keeps no tool calls):
//
//   - one JSON object per line: role (system, user, assistant), content,
//     timestamp (datetime.now().isoformat(): the host's local time with no
//     zone, emitted as if UTC, time_basis local-as-utc; a time with an
//     offset is read as such), files, pinned, hide, call_id, metadata
//     (model, usage, cost, tool).
//   - user: a user row, what was typed, unless hide is set (context the
//     agent injected, a system row). Attached files are named.
//   - assistant: an assistant row, one tool_use row per tool call in the
//     content, found as gptme finds them: a fenced code block whose
//     language is a tool's block type ("```shell", "```save path", ...), and
//     in the tool format a line "@tool(call_id): {json}". Code blocks of
//     other languages are prose. Then, when metadata holds usage
//     (input_tokens, output_tokens, cache_read_tokens,
//     cache_creation_tokens) or cost, a system row "token usage: input N,
//     output N, cache read N, cache creation N, cost $X" at the message's
//     time, naming only what is there (agentsview 538600744 gptme.go reads
//     the same usage fields; a cost that is not a number is quoted as is).
//   - system: the tool results come back as system messages: one with a
//     call_id or metadata.tool is a tool_result row, one following an
//     assistant message with tool calls the result of the first call not yet
//     answered; the rest (the system prompt, notices) are system rows.
//
// Fixture: built from the source above (testdata/), no real run: gptme is a
// Python package (PyPI), not runnable here against the loopback mock.
package gptme

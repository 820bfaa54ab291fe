// Package aider parses Aider's history files, kept in the project
// directory (the git root or cwd; collected as home targets and as project
// artifacts, catalog target "project").
//
// Evidence: the writer is Aider-AI/aider aider/io.py (InputOutput:
// append_chat_history, user_input, ai_output, confirm_ask, tool_output,
// log_llm_history; FileHistory for the input history), aider/utils.py
// (format_messages) and aider/coders/base_coder.py (get_announcements,
// send, the reasoning tags) at 5dc9490bb35f9729ef2c95d00a19ccd30c26339c
// (May 2026; the confirm and prompt line formats are the same at
// ff3d2b0 and 6fc3776, and "(Y)es/(N)o/(A)ll/(S)kip all [Y]:" at 7805aaf,
// August 2024). The real .aider.llm.history of jkassemi/friendly_names at
// 33ef87a (aider of January 2025, shared samples) is tested value by
// value; the chat and input histories are tested on synthetic files made
// from the source.
//
// Sessions: aider records no session id. A run of the chat history starts
// with "# aider chat started at YYYY-MM-DD HH:MM:SS" (host local time, no
// zone) and its rows get the session id "aider-<YYYYMMDDTHHMMSS>" of that
// start. The input and LLM histories read the run starts of the chat
// history in the same directory (when collected) and put each entry in the
// latest run started at or before its time ("" when none, or when the chat
// history was not collected). Every time is naive local time emitted as if
// UTC (TimeBasis local-as-utc). Project path: the directory holding the
// file (a repository, or the home when aider ran there).
//
// Parsers:
//
//   - chat-history: .aider.chat.history.md. Each run gives a system row
//     "aider chat started at <time>"; every row of the run has the run's
//     start time (the file has no other). A prompt is written as "#### "
//     lines, one per line of input, each ending in two spaces; consecutive
//     "#### " lines are one user row ("<blank>", an empty input, gives
//     none). Tool and status output is "> " lines ending in two spaces: one
//     system row each (a multi-line confirm subject, such as a shell
//     command, continues on lines with no "> " and no blank line before
//     them). confirm_ask's record "<question> (Y)es/(N)o... [Yes]: <a>"
//     gives "permission decision: <yes|no> <question>" instead (y, and a
//     when (A)ll was offered, are yes; n, s and d are no); a group's
//     remembered answer is logged as a "#### " line and gives the same
//     row. "Main model: <id> with ..." (or "Model: <id> with ...") gives,
//     after its own system row, "model: <id>" at a run's first model and
//     "model: <old> -> <new>" when /model changes it. Anything else is the
//     assistant's reply, up to the next prompt or tool line; inside a
//     ``` or ~~~ fence "#### " and "> " lines belong to the reply, and
//     outside one only lines ending in two spaces are prompts or tool
//     lines, so a reply's own "#### " headings and "> " quotes stay in it.
//     When no prompt or tool line in the file ends in two spaces (a
//     whitespace hook stripped them) every "#### " and "> " line outside a
//     fence is taken as one. A reply that starts with aider's reasoning
//     tag (<thinking-content-...>) or <think> gives a thinking row and an
//     assistant row; assistant and thinking rows carry the run's model.
//   - input-history: .aider.input.history, prompt_toolkit's FileHistory:
//     "# <str(datetime.now())>" (local, microseconds) then "+<line>" per
//     line. One secondary user row per entry (answers typed at confirm
//     prompts are entries too).
//   - llm-history: .aider.llm.history (off unless --llm-history-file):
//     "TO LLM <iso seconds>" and "LLM RESPONSE <iso seconds>" headers, then
//     "-------" between messages and each line prefixed by its role. A TO
//     LLM block holds the whole context, so it gives one secondary row for
//     its last USER message, with the edit-format reminder aider appends
//     cut off: a user row, or a system row when aider wrote it ("I added
//     these files to the chat: ...", commit notices, lint and failed-edit
//     reflections); a message equal to the previous reply (the architect
//     handing its plan to the editor model: skip "copy_of_reply") gives no
//     row; one already sent in the same run (a retry, a lint reflection
//     repeated) is a system row "request sent again (the same last message
//     as the request at line N)", never dropped and never a second prompt;
//     the same words in another run are that run's own prompt. Each LLM
//     RESPONSE block gives a secondary assistant row (and a thinking row
//     for a leading reasoning tag; an empty one is a skip). No model is
//     recorded in this file.
//
// Files not UTF-8 (aider writes with --encoding, errors ignored) are read
// as Latin-1 with one problem at the first such line.
//
// Contract: aider keeps no record ids, so RecordID is "" on every row and
// the engine's full-value keys apply. Every record gives rows or a
// counted skip: an empty prompt ("<blank>", an input entry with no line)
// is "empty_prompt", a "> " line with nothing after it
// "no_evidence:empty_tool_line". The secondary windows are 0: the chat
// history's rows carry only their run's start time, so the input and LLM
// histories' rows (which have their own times) pair on the run's session
// and the text. A chat history beside an input or LLM history that can be
// read only in part for its run starts is a problem row.
//
// Not done: chat rows take the run start time, not the finer times the
// input and LLM histories hold (the engine's secondary dedup keeps the
// chat rows); tool and status lines are not turned into tool_use and
// tool_result pairs (aider has no tool-call records: edits are blocks in
// the reply text, commands are "> Running ..." lines); .aider.conf.yml
// and the model settings files are not read.
package aider

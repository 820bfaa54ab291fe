// Package pi parses the pi coding agent's state under ~/.pi/agent, the
// files little-coder (a launcher and extension set for pi, whose
// transcripts are pi sessions) writes beside it, and the sessions of two
// pi forks that keep its format under their own homes: Prime Agent (Prime
// Intellect, ~/.prime/agent/sessions) and OhMyPi (omp,
// ~/.omp/agent/sessions).
//
// The forks (parse_flavours.go), read by the session format reader with
// each fork's additions:
//
//   - prime-agent/session: Prime Agent is closed source with no npm
//     release (npm view prime-agent: 404), so its additions are from
//     kenn-io/agentsview internal/parser/pi.go and
//     prime_agent_provider_test.go at 5386007: the file name need not be
//     the session id (v0.7.0 names the file before the header: the
//     header's id wins); parentSession is the parent's file path, maybe as
//     a container saw it, so the parent is that file's header id where it
//     was collected, else the header of the file of that name beside this
//     one, else that name; child_usage_attributed (the tokens subagents
//     spent, attributed to a message) is a system row.
//   - omp/session: from the source shipped in npm
//     @oh-my-pi/pi-coding-agent 18.3.4 (src/session/session-entries.ts,
//     session-manager.ts) and agentsview at 5386007. Line 1 may be a
//     fixed-width title slot {type:"title"} rewritten in place (the
//     current title, a system row at its updatedAt; no "no header"
//     problem); parentSession is the parent's id itself; model_change
//     names "provider/modelId"; title_change, model_usage (a model call
//     outside the transcript: title, summaries), service_tier_change,
//     reset_boundary (/clear: the entries before stay), ttsr_injection
//     (rules injected), credential_pin (the account's hash, never the
//     account), session_init (a subagent's agent, task, tools, system
//     prompt length) and mode_change are system rows. A subagent's
//     transcript is <time>_<id>/<agent>.jsonl beside the parent's
//     <time>_<id>.jsonl: its parent is that file's header id (else the id
//     in the folder name) and its user messages, the task the parent
//     agent wrote, are system rows "subagent task from the parent agent
//     (not typed): ...". Both read in the reader's contract mode; an
//     entry type neither fork nor pi writes is an "unknown entry type"
//     problem. OhMyPi was run here (2026-12-03): npm
//     @oh-my-pi/pi-coding-agent 18.2.3 (18.3.4's dependencies are not all
//     served) under Bun 1.4.5 from npm @oven/bun-linux-x64, against the
//     loopback mock (scripts/gen-omp-fixture.sh): its three sessions
//     (testdata/omp-real: a bash call, a write, a bash call refused as an
//     unknown tool) are read line for line (TestOMPRealRun); their
//     thinking_level_change has thinkingLevel null, which reads
//     "thinking_level=(not set: null)". Prime Agent has no release, and
//     OhMyPi's other entry types and subagents did not occur in those
//     runs, so the other fixtures (testdata/flavours) are built from the
//     sources above.
//
// Evidence: pi's session format from badlogic/pi-mono
// packages/coding-agent/src/core/session-manager.ts (SessionHeader,
// SessionEntry, migrateV1ToV2, migrateV2ToV3, createBranchedSession,
// forkFrom), packages/coding-agent/src/core/messages.ts (bashExecution,
// custom, branchSummary, compactionSummary messages) and
// packages/ai/src/types.ts (UserMessage, AssistantMessage,
// ToolResultMessage, TextContent, ThinkingContent, ToolCall) at
// 83378aad7e74a0e2bb8f37c007a9685fb4609d8a (coding-agent 0.58.3, March
// 2026); the seed cites 2003871 and 5c1736f (coding-agent 1.3.0), which
// this snapshot lacks. little-coder from itayinbarr/little-coder at
// 5bd4959e48165185bfd8ce13a263f936efe8a18c (.pi/extensions/checkpoint,
// permission-gate and the tools its extensions register); the prompt
// history's shape (a JSON array of up to 100 strings, oldest first) from
// its prompt-history extension as quoted by the research notes for 89d4fa0.
// Tested on synthetic files; a real-agents-2 fixture test runs when that
// fixture is present.
//
// Parsers:
//
//   - pi/session: sessions/--<cwd>--/<time>_<id>.jsonl and legacy
//     .pi/agent/*.jsonl. The first line is the header {type:"session",
//     version, id, timestamp, cwd, parentSession}; its id is the session
//     id (the file name's id when the header is missing) and cwd the
//     project path. Entries carry id/parentId (v1 files have neither) and
//     an ISO timestamp (the message's epoch-ms timestamp when absent).
//     Every entry is emitted in file order, whichever branch of the tree it
//     is on (abandoned branches are evidence too). A message entry with
//     role user gives a user row (text blocks joined, images named); role
//     assistant gives per content block a thinking row, an assistant row,
//     or a tool_use row (ToolName, ToolUseID the call id, ToolInput the
//     arguments, Text the command, path, URL, pattern or query) with the
//     message's model, and a system row "error: <errorMessage>" when the
//     call failed; role toolResult gives a tool_result row (ToolUseID
//     toolCallId, IsError isError); role bashExecution (a "!" command the
//     user ran) gives a tool_use/tool_result pair named bash, linked by
//     "bash-<line>", the exit code in the result text; roles custom (v2:
//     hookMessage), branchSummary and compactionSummary are system rows.
//     model_change gives "model: <modelId> provider=<provider>" and then
//     "model: <old> -> <new> provider=<provider>"; thinking_level_change
//     gives "model: <current> thinking_level=<level>" (a null level
//     "(not set: null)"); compaction,
//     branch_summary, custom_message and session_info (the name) are system
//     rows; label entries and extension custom entries give none, except
//     customType pi.bug-report: "session synced: bug report uploaded <url>"
//     (and a session state synced=yes) or "bug report exported: <path>"
//     (its data keys are read tolerantly; the 1.3.0 source was not read).
//     pi's own files are read in the reader's contract mode: RecordID is
//     the entry id ("<id>#<n>" for content block n, "#model", "#error",
//     "#decision", "#use"/"#result" for a "!" command, "#fork" and
//     "#little-coder" for the header's rows); an entry that gives no row
//     is a skip (the header "state_only", a model_change that changes
//     nothing, an empty message). Nothing is de-duplicated by text.
//     A fork (header parentSession) starts with "session forked from
//     <parent>" and its session state is forked_from the parent (the
//     parent file's header id, else the id in its file name); the fork's
//     own rows carry the parent as parent_session_id. The entries copied
//     from a collected parent (same ids) are the parent's records
//     replayed: their rows carry the parent's session and the entry's id,
//     Replayed, so the engine's identity merge writes the parent's (and
//     keeps the copy only where the parent's file lost it); when the
//     parent was not collected nothing tells the copies apart and they
//     are the fork's own rows. A
//     session "looks driven by little-coder" when a checkpoint directory
//     named for its file was collected, when it calls a tool only
//     little-coder registers (ShellSession*, Evidence*, Browser*), or when
//     little-coder's permission gate refused a call; it then gets one
//     system row "session driven by little-coder: <why>". A refused call's
//     tool_result (text "bash whitelist: ..." or "manual permission mode:
//     ...", the block reason pi's agent-loop.ts writes as an error tool
//     result) is followed by "permission decision: denied
//     source=little-coder-permission-gate" with the call's id. Bad lines
//     (cut, glued, unknown types) are problems; a glued record is kept.
//   - pi/settings: settings.json, only defaultProjectTrust: "permission
//     setting: defaultProjectTrust=<v> (from <file>, file mtime)"; a file
//     without it is a skip "setting_not_read".
//   - pi/debug-log (secondary): pi-debug.log, which /debug overwrites with
//     one snapshot (interactive-mode.ts handleDebugCommand at the commit
//     above): "Debug output at <ISO>", "Terminal: <w>x<h>", "Total lines:
//     <n>", "=== All rendered lines with visible widths ===" and the TUI's
//     rendered lines, "=== Agent messages (JSONL) ===" and the session's
//     messages, one JSON AgentMessage a line; PI_DEBUG_REDRAW=1 appends
//     "[<ISO>] fullRender: ..." lines (packages/tui/src/tui.ts). Rows: one
//     "debug snapshot at <time>: terminal <w>x<h>, <n> rendered line(s), <m>
//     message(s)" row, and each message through the session reader as a
//     secondary row at the message's own timestamp, with no session (the
//     snapshot names none); rendered and redraw lines are skips (the
//     messages hold what the screen shows). Window 10 minutes: a message's
//     timestamp is set when it is created (an assistant message's when its
//     generation starts), its session entry's when it is appended.
//   - pi/experimental-meta: experimental/sessions/<id>/meta.json, the
//     experimental server's durable session (id, creation time and working
//     directory, as public notes on pi's experimental server describe it;
//     no source at a commit seen here): one "experimental session <id>:
//     cwd=<cwd> <other keys> (session.sqlite collected, not parsed|not
//     collected)" row at the creation time (else the file's mtime), project
//     path the cwd. The pi-durable session.sqlite is not parsed: no
//     schema of it was seen.
//   - pi/trust: trust.json, one "permission setting: trust.<path>=<value>
//     (from <file>, file mtime)" row per project, project path the
//     project. The file's shape was not read from source: a map of path to
//     decision (top level or under projects/trusted) or a list of objects
//     with a path is accepted; anything else is a problem.
//   - pi/crashes: crashes.json, one "crash: <message>" row per entry of an
//     array (or of a "crashes" array), timed by its timestamp/time (ISO
//     or epoch ms); shape read tolerantly, not from source.
//   - little-coder/prompt-history: .pi/agent/little-coder-prompt-history.json,
//     one secondary user row per prompt, no time or session, SourceLine the
//     1-based array index; a cut array keeps the prompts before the cut;
//     an empty entry is a skip "empty_prompt".
//   - little-coder/checkpoints: .little-coder/checkpoints/<session
//     file>/<path with [^A-Za-z0-9._-] as _> (and <name>.absent when the
//     file did not exist): one system row per directory, emitted on its
//     alphabetically first file, "little-coder checkpoints for pi session
//     <file>: <n> pre-edit file(s): <names>", at the earliest file mtime,
//     session id and project path from the collected pi session header
//     (else the id in the directory name); the set's other files are skips
//     "listed_with_checkpoint_set". The v0.0.x layout <sid>/snapshots.json
//     gives one system row per snapshot, "little-coder checkpoint #<id>:
//     turn <n> message <i> prompt="<preview>"; files: <path> (backup
//     <name>|did not exist), ...", at created_at (host local time,
//     local-as-utc), session id the run's checkpoint id, RecordID
//     "<sid>/checkpoint/<id>"; a snapshot /rewind made (preview "[rewind to
//     #N]") reads "rewound to checkpoint #N (conversation cut to message
//     <i> and/or files restored)" (the choice is not recorded); its
//     backups/<hash>@v<N> copies are skips "named_by_snapshots_json".
//
// little-coder's retired v0.0.x Python releases, from
// itayinbarr/little-coder at tag v0.0.5
// (424f7a4b9f9214a36a6bcb69e1f3435ca3e68d03; see parse_littlecoder_v0.go):
//
//   - little-coder/session: .little-coder/sessions/daily/<date>/
//     session_*.json (the exit save), the /save files under sessions/ and
//     older releases' mr_sessions/*.json: {session_id, saved_at, messages,
//     turn_count, total_*_tokens}. One "little-coder session <sid> saved at
//     <saved_at>: <n> turn(s), <in> input / <out> output tokens, <m>
//     message(s)" row, then per message a user (or, for the corrections
//     and /brainstorm, todo, worker and promote prompts little-coder writes
//     as user messages, system), assistant, thinking, tool_use (tool_calls
//     or tool_use blocks) or tool_result row; a result "Denied: user
//     rejected this operation" is an error followed by "permission
//     decision: denied". Every row is at saved_at (host local time,
//     local-as-utc: the messages carry no time); RecordID "<sid>#session",
//     "<sid>/<message index>" (with "#<block>", "#tool<k>", "#decision",
//     "#image<k>"); an empty message is a skip. Prompts the harness writes
//     with no marker other than these texts (the Telegram relay's, a voice
//     transcription) stay user rows.
//   - little-coder/session-copy (secondary): sessions/history.json (every
//     exit save, pruned to session_history_limit) and
//     mr_sessions/session_latest.json (the last): the same rows, with the
//     same record ids, so the identity merge writes each once and a copy
//     stands for a daily file the daily limit pruned.
//   - little-coder/input-history (secondary, no time): input_history.txt,
//     readline's history: one user row per line (libedit's _HiStOrY_V2_
//     header and \040 escapes handled; a GNU "#<epoch>" line times the
//     next entry).
//   - little-coder/config: config.json, a file that also holds the API
//     keys (catalog kind secret; those are never read): "permission
//     setting: permission_mode=<v>", "gist sync setting: cloudsave_auto=<v>
//     gist_token=<present|absent> last_gist_id=<id>" and "telegram relay
//     setting: telegram_chat_id=<id> telegram_token=<present|absent>", each
//     "(from <file>, file mtime)".
//
// The saved session's id and the checkpoint run's id differ (both are
// fresh uuid4 prefixes, one at the run's start, one at each save), so one
// run appears as two sessions; nothing in the files joins them.
package pi

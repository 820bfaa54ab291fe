// Package pi parses the pi coding agent's state under ~/.pi/agent and the
// files little-coder (a launcher and extension set for pi, whose
// transcripts are pi sessions) writes beside it.
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
//     gives "model: <current> thinking_level=<level>"; compaction,
//     branch_summary, custom_message and session_info (the name) are system
//     rows; label entries and extension custom entries give none, except
//     customType pi.bug-report: "session synced: bug report uploaded <url>"
//     (and a session state synced=yes) or "bug report exported: <path>"
//     (its data keys are read tolerantly; the 1.3.0 source was not read).
//     A fork (header parentSession) starts with "session forked from
//     <parent>", and the entries copied from the parent (same ids) are
//     dropped when the parent file is collected; otherwise they stay. A
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
//     setting: defaultProjectTrust=<v> (from <file>, file mtime)".
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
//     1-based array index; a cut array keeps the prompts before the cut.
//   - little-coder/checkpoints: .little-coder/checkpoints/<session
//     file>/<path with [^A-Za-z0-9._-] as _> (and <name>.absent when the
//     file did not exist): one system row per directory, emitted on its
//     alphabetically first file, "little-coder checkpoints for pi session
//     <file>: <n> pre-edit file(s): <names>", at the earliest file mtime,
//     session id and project path from the collected pi session header
//     (else the id in the directory name).
//
// Not done: pi-debug.log (its /debug snapshot format was not read),
// experimental/sessions/<id>/meta.json and session.sqlite, and
// little-coder's retired v0.0.x Python layout (.little-coder/sessions,
// input_history.txt, snapshots.json, config.json).
package pi

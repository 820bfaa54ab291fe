// Package kimicli reads Kimi CLI (Moonshot AI's kimi-cli) files under
// ~/.kimi (KIMI_SHARE_DIR moves it; the catalog does not follow it).
//
// # kimi-cli/wire (target "sessions")
//
// sessions/<md5 of the work directory>/<session id>/wire.jsonl is the
// session's append-only event log (src/kimi_cli/wire/file.py): a
// {type: "metadata", protocol_version} header (a Skip "wire_metadata"),
// then {timestamp (epoch seconds), message: {type, payload}} records, as
// the wire's merged queue delivers them (streamed text and call arguments
// already joined). The session id is the folder name; the project path
// comes from kimi.json beside the sessions folder (the md5 of each work
// directory's path, "<kaos>_<md5>" for a non-local one), and is empty
// when kimi.json is not in the input. Every record is one of:
//
//   - TurnBegin and SteerInput: what the person typed, a user row (content
//     parts joined, media as "[image_url: ...]", a data URL by its size);
//     "[Imported context from ...]" (the /import command's synthetic turn)
//     is a system row; an empty prompt a Skip "no_evidence:empty_prompt".
//   - ContentPart: text an assistant row, think a thinking row.
//   - ToolCall: a tool_use row (ToolName, ToolInput the decoded arguments,
//     ToolUseID and RecordID the call id; Text the command, path, URL or
//     query); ToolResult the tool_result by tool_call_id (RecordID
//     "<id>#result", IsError, Text the message then the output).
//   - ApprovalRequest: "permission requested: <action>: <description>" on
//     the call's id (RecordID the request id); ApprovalResponse (and wire
//     v1's ApprovalRequestResolved) "permission decision: approve |
//     approve_for_session | reject (feedback: ...)", paired by request id.
//   - QuestionRequest (AskUserQuestion): a system row with the options;
//     QuestionResponse: the person's answers, a user row.
//   - BtwBegin (/btw side question): a user row; BtwEnd its answer.
//   - StepRetry, StepInterrupted, CompactionBegin/End, hooks (HookTriggered,
//     HookResolved with allow or block, HookRequest, HookResponse),
//     Notification, PlanDisplay, and StatusUpdate's plan_mode: system rows.
//     A compaction keeps every row before it: the wire is never rewritten.
//   - StatusUpdate's accounting (token_usage: input_other, input_cache_read,
//     input_cache_creation, output; context_tokens of max_context_tokens;
//     the step's message_id): a system row "token usage of step <id>:
//     input N (cache read N, cache creation N), output N; context N of N
//     tokens" naming only the counters the update holds (agentsview
//     538600744 kimi.go sums only the output and the peak context).
//   - StatusUpdate with none of those (mcp_status only), TurnEnd, StepBegin,
//     MCPLoadingBegin/End, ToolCallPart (a delta the merged queue has
//     folded into its ToolCall) and ToolCallRequest (the request to an
//     external tool client, which repeats the ToolCall): counted Skips.
//   - SubagentEvent {parent_tool_call_id (task_tool_call_id before),
//     agent_id, event}: the subagent's event. When the subagent's own
//     subagents/<agent id>/wire.jsonl is in the input its rows come from
//     there and this copy is a Skip "subagent_event:in_subagent_wire";
//     otherwise the event gives its rows here, in session
//     "<session>/<agent id>" with ParentSessionID the session.
//   - Anything else is a skipped_record problem naming the type; a line
//     that is not JSON a parse problem.
//
// A subagent's own wire (subagents/<agent id>/wire.jsonl) is session
// "<session>/<agent id>", parent the session; its TurnBegin is the task
// the parent agent wrote, a system row "subagent task (written by the
// parent agent): ...", never a user row. Kimi CLI records no model name
// on the wire (the model is in config.toml, kind secret, not read).
//
// # kimi-cli/state (target "session-state")
//
// state.json (src/kimi_cli/session_state.py, version 1), at the file's
// mtime: the approval state (yolo, afk, the actions approved for the
// session) as a permission setting row, the title, plan mode, each
// additional directory, the archive time and the to-do list.
//
// # kimi-cli/work-dirs (target "work-dirs")
//
// kimi.json (src/kimi_cli/metadata.py): one row per work directory with
// its sessions folder and last session id, at the file's mtime.
//
// # kimi-cli/user-history (target "user-history")
//
// user-history/<md5 of the work directory>.jsonl
// (src/kimi_cli/ui/shell/prompt.py): one {"content"} line per prompt
// submitted in the shell (a repeat of the one before is not written), no
// time and no session: secondary user rows, window 0, paired with the
// wire's TurnBegin rows by text.
//
// # Validated against
//
// Source: MoonshotAI/kimi-cli @4a550effdfcb (2026-07-16): src/kimi_cli/
// wire/file.py, wire/types.py, metadata.py, share.py, session.py,
// session_state.py, subagents/store.py, ui/shell/prompt.py, tools/*, and
// packages/kosong/src/kosong/message.py. Layout cross-checked with
// kenn-io/agentsview @538600744d1b internal/parser/kimi.go and types.go
// (read, not copied). Synthetic fixture in testdata/home built from those
// shapes: kimi-cli is on PyPI, not reachable here, and needs a Moonshot
// login; no real install was run.
//
// # Not read yet
//
// context.jsonl and its rotations context_<n>.jsonl (the model's context:
// messages, "_checkpoint" and "_usage" lines; a rotation keeps the turns
// a /rewind removed, which the wire log also holds) are collected, not
// parsed. subagents/<id>/meta.json, prompt.txt and output are collected;
// the subagent's wire holds its rows. The newer Kimi Code layout
// (~/.kimi-code, top-level turn.prompt / context.append_loop_event
// records) and Kimi Work (the desktop app) are not catalogued yet.
package kimicli

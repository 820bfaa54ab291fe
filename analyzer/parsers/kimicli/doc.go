// Package kimicli reads Kimi CLI (Moonshot AI's kimi-cli) files under
// ~/.kimi (KIMI_SHARE_DIR moves it; the catalog does not follow it), and
// those of its successor Kimi Code (the TypeScript CLI of
// MoonshotAI/kimi-code, npm @moonshot-ai/kimi-code, same `kimi` command)
// under ~/.kimi-code on Linux, macOS and Windows alike (homedir();
// KIMI_CODE_HOME moves it, a catalog relocation). Kimi Code's parsers are
// the "code-" ones below; the journal is read by
// parser/format/kimiwire.ParseCode.
//
// # kimi-cli/code-wire (target "code-sessions")
//
// sessions/<workDirKey>/<session id>/agents/<agent id>/wire.jsonl, the
// agent's append-only journal (agent-core-v2 docs/wire-manifest.d.ts,
// protocol 1.5): a {type: "metadata", protocol_version, created_at} line,
// then {type, ...payload, time (epoch ms)} records. workDirKey is
// "wd_<slug>_<12 hex of sha256>"; the session id is the "session_<uuid>"
// folder; the main agent's wire is agents/main, a subagent's agents/<id>
// (agent-0, ...), session "<session>/<id>" with ParentSessionID the
// session. The project path is state.json's cwd beside agents/ (else the
// first profile.bind's environmentDisclosure.cwd). Every record is one of:
//
//   - turn.prompt, turn.steer with origin kind "user": what the person
//     typed, a user row (RecordID the promptId, "#steer" for a steer;
//     media parts as "[image_url: ...]", a data URL by its size); in a
//     subagent's wire the system_trigger prompt is the parent agent's task,
//     a system row "subagent task (written by the parent agent): ...";
//     any other origin (skill_activation, plugin_command, injection,
//     shell_command, compaction_summary, task, cron_job, cron_missed,
//     hook_result, retry) a system row "prompt not typed by the user
//     (origin ...)". Never a user row for text the person did not type.
//   - context.append_message: the user message that repeats a turn.prompt
//     of this file (same id) is a Skip "context_message:repeats_turn_prompt";
//     assistant and tool messages repeat the loop events (Skip
//     "context_message:repeats_loop_event"); everything else the harness
//     put in the model's context (date and permission-mode reminders, hook
//     output) a system row "context added for the model (not typed, <origin>)".
//   - context.append_loop_event: content.part text an assistant row, think
//     a thinking row (RecordID the part's uuid); tool.call a tool_use row
//     (ToolName, ToolInput the arguments, ToolUseID and RecordID the call
//     id); tool.result the tool_result by call id (RecordID "<id>#result",
//     IsError, Text the output then the note); step.begin a Skip; step.end
//     a Skip when its usage repeats the usage.record before it, else a
//     "token usage of step N (message id)" row.
//   - usage.record: "token usage of a model call: input N (cache read N,
//     cache creation N), output N", Model the record's model alias. The
//     model in force (profile.bind, config.update, llm.request) is the
//     Model of every assistant, thinking and tool_use row.
//   - profile.bind ("agent bound": model, profile, thinking effort,
//     working directory, AGENTS.md files read, tools disallowed, number of
//     tools offered) and config.update: system rows; a config.update that
//     changes the model alias (a resume with -m, /model) is the switch row
//     "model: <old> -> <new> (thinking <effort>)", any other "agent
//     configuration changed: ...".
//   - permission.record_approval_result after the interaction.resolved of
//     the same call repeats its decision: a Skip
//     "approval_result:repeats_interaction_resolved", unless it leaves a
//     standing rule ("permission setting: approved for the rest of the
//     session: Bash(...)"); without one before it, the decision row.
//   - permission.set_mode: "permission mode: manual | yolo | auto (...)".
//   - interaction.request (approval: "permission requested: <action> (by
//     <tool>)"; question: "question to the user: ... [options]") and
//     interaction.resolved ("permission decision: approved | rejected |
//     cancelled [for the session] (feedback: ...)"; a question's answers a
//     user row, the person's choice), paired by the interaction id on the
//     tool call (the request names the tool: the journal writes it before
//     the tool.call).
//   - subagent.spawned (the subagent's id, type, task description and
//     model, on the parent's Agent call id), subagent.completed (its
//     summary and token usage): system rows; subagent.started a Skip.
//   - turn.step.retrying ("model call failed (<error>, HTTP <status>:
//     <message>); retry N of M"), turn.cancel, turn.ended other than
//     completed, prompt.completed other than completed: system rows; a
//     completed turn.ended or prompt.completed a Skip.
//   - context.apply_compaction (with its summary and count),
//     full_compaction.begin/complete/cancel, context.clear, context.undo:
//     system rows; the rows before them stay (the journal is never
//     rewritten, and nothing is dropped or merged on their account).
//   - file_history.tracked and file_history.checkpoint (each file's
//     version, the copy under file-history/ the agent saved before
//     changing it, its sha256 and size), plan_mode.*, plan.revision,
//     goal.*, cron.add and cron.delete (scheduled prompts), task.started
//     and task.terminated (background tasks with their output tail),
//     mcp.tools_discovered, tools.register_user_tool and
//     tools.unregister_user_tool, tools.update_store, forked, swarm_mode.*,
//     tower_mode.*, a plugin.session_start with content: system rows.
//   - Counted Skips: metadata, runtime.set_binding, llm.request,
//     llm.tools_snapshot, token_counting.*, prompt.accepted, staleGuard.*,
//     interruptionReminder.recorded, task.waitDelivered, cron.cursor,
//     tools.set_active_tools, tools.reset_active_tools, an empty
//     plugin.session_start, and every record with kind "event" (the
//     runtime's observable events agent.message.appended,
//     agent.turn.started, agent.turn.ended, which repeat the journal
//     records around them), each under its own reason.
//   - Anything else is a skipped_record problem naming the type (a record
//     type or a loop event type); a record with a field of another type
//     than the release writes a skipped_record problem naming the record
//     type and the field; a line that is not JSON a parse problem.
//   - A journal that stops mid-turn (a turn.prompt with no turn.ended,
//     turn.cancel or prompt.completed after it) ends with a system row
//     "turn not ended: the journal stops at line N, mid-turn (...)" at its
//     last record's time.
//
// A process killed mid-answer leaves the journal as it was at the last
// record (the real "killed" run: the prompt, the binds, the request; the
// streamed text of the unfinished step is not written).
//
// # kimi-cli/code-state, code-index, code-workspaces, code-trust
//
// workspace-trust/<workspace id> ({root, trustedAt}, agent-core-v2
// src/workspace/workspaceTrust/trustRecord.ts): the person's "Trust this
// folder?" answer, which lets the folder's project MCP servers start: a
// permission setting row at trustedAt.
//
// sessions/*/*/state.json (version 2): "session created in <cwd>" at
// createdAt and "session last updated: title, last turn, archived, forked
// from, last prompt (a copy)" at updatedAt, one row per subagent instance;
// session_index.jsonl: one row per indexed session with its work directory
// (no time: the file's mtime); workspaces.json: each workspace's creation
// and last opening at their recorded times, each deleted workspace id at
// the file's mtime. user-history/<md5 of the work dir>.jsonl has Kimi
// CLI's {content} shape and is read by kimi-cli/user-history (the work
// directory from workspaces.json).
//
// Kimi Code evidence: a real install of @moonshot-ai/kimi-code 2.1.0
// (npm; Node 24) run against the loopback mock
// (fixtures/roots/real-agents-kimi-code, scripts/gen-real-fixtures-kimi-code.sh:
// shell, resume with a model switch, file write, subagent, an HTTP 500
// retry, a killed run; in the TUI, an approval for the session and a
// refusal, each with its interaction.request, interaction.resolved and
// permission.record_approval_result); the records these runs did not
// write (questions, thinking, steering, cancel, compaction, undo, clear,
// schedules, background tasks) are synthetic, in
// testdata/home/.kimi-code, built from MoonshotAI/kimi-code at
// d723cc47ee43 (2026-08-22): packages/agent-core-v2/docs/wire-manifest.d.ts,
// src/agent/contextMemory/loopEventFold.ts, src/session/approval/approval.ts,
// src/session/question/question.ts, src/agent/permissionRules/,
// apps/kimi-code/src/utils/paths.ts, docs/en/configuration/data-locations.md.
// The release is newer than that commit and also journals
// subagent.spawned/started/completed, file_history.*, turn.step.retrying
// and prompt.completed, read from the real files. Layout cross-checked
// with kenn-io/agentsview @538600744d1b internal/parser/kimi.go (read, not
// copied), which reads turn.prompt, content parts, tool calls and results,
// config.update's model and the output tokens of usage.
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
// the subagent's wire holds its rows. Kimi Code's logs (kimi-code.log,
// updates/rollout.log), file-history copies, session index caches and the
// per-session notify, tasks, cron and plans files are collected, not
// parsed (the journal records what they hold); its config.toml (hooks,
// permission rules, providers with keys) is collected as a secret, not
// read.
package kimicli

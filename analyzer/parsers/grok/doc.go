// Package grok reads Grok Build (xAI's grok CLI) session folders under
// ~/.grok/sessions (GROK_HOME moves ~/.grok: the catalog relocation):
// sessions/<url-encoded cwd>/<session id>/. The session id is the folder
// name, the project the decoded folder above it.
//
// # grok/session (target "sessions")
//
// chat_history.jsonl, the raw chat messages sent to the model. Current
// rows carry a type:
//
//   - system {content}: a system row "system prompt: ...".
//   - user {content: string or [{type: text, text}], prompt_index,
//     synthetic_reason}: a user row when synthetic_reason is absent or
//     "interjection" (text the person typed while a turn ran); any other
//     reason (project_instructions, ...) is injected text, a system row
//     "injected input, not typed (<reason>): ...".
//   - reasoning {id, summary: [{text}], content}: a thinking row.
//   - backend_tool_call {kind: {tool_type, action, id, status}}: a
//     server-side tool (web_search, x_search, code_interpreter) as a
//     tool_use row, ToolInput the action; it has no tool_result row.
//   - assistant {content, tool_calls: [{id, name, arguments}], model_id,
//     reasoning: {text}}: a thinking row (its reasoning), an assistant row
//     and a tool_use row per call (ToolInput the arguments' JSON).
//   - tool_result {tool_call_id, content}: the tool_result row by call id;
//     a denied call's refusal comes back as its result text.
//
// A typed prompt the turn pipeline wrapped (prompt_parser.rs: the typed
// text in <user_query>, the attached files, skill information and
// reminders beside it) is a user row of the text inside <user_query> and
// a system row "injected with the prompt, not typed: ..." of the rest.
// Without <user_query>, whole blocks of the tags Grok writes into user
// messages itself (user_info, git_status, system-reminder, agent_skills,
// attached_files, skill_information, mcp_servers) are split off the same
// way; a message of such blocks alone (the <user_info> session preamble,
// spawn.rs, which carries no synthetic_reason) is a system row
// "injected input, not typed (Grok's context): ...".
//
// Legacy rows (Grok Build's chat-history-downgrade output) carry an
// OpenAI role instead: system, user, assistant with tool_calls [{id,
// function: {name, arguments}}] and reasoning_content, tool: the same
// rows. An unknown type or role, and a result with no call id, are
// skipped_record problems; a row with no text a Skip
// "no_evidence:empty_<type>".
//
// Times. The file records none; the updates.jsonl of the same session
// folder (read beside it, streamed, its texts kept only as SHA-256) does,
// and a row takes an update's time (time_basis anchored) only when the
// update names it: a tool_use row (and a server-side tool call) the
// tool_call of its call id, a tool_result row the tool_call_update of its
// call id that completed or failed; a user row the next prompt (a run of
// user_message_chunk, not a host turn) of the live timeline with the same
// exact text, and the same prompt_index when both files record one; an
// assistant or thinking row the next agent_message_chunk or
// agent_thought_chunk run with the same exact text within the turn of the
// last row matched (before the next prompt). A prompt a rewind cut off is
// never matched (its retry is). The live timeline is the one Grok replays
// (xai-grok-shell session/storage/mod.rs filter_rewind_by and
// collect_prompts_from_events at 19d42e3: chunks of one prompt joined
// with nothing between them and trimmed; once a chunk carries a
// promptIndex only marked chunks count; a rewind_marker to prompt N cuts
// everything from prompt N's first line on). agentsview 538600744
// anchors by text and call id too, without the turn, prompt_index or
// rewind bounds. Rows no update names (system prompts, injected text,
// replies of other wording) stay undated (time_basis none), counted in
// one undated_rows problem for the file by turn type, also when
// updates.jsonl was not collected. The join is done here, reading both
// files of one session folder, not in the correlate stage: no row is
// merged or paired (each chat row stays the one row of its record and
// only takes a time another file of its session records for it), and the
// rules that say which update names which row (chunk runs, promptIndex,
// host turns, the rewind cut) are Grok Build's format, which the
// correlate stage, agent-blind, does not know.
//
// # grok/summary (target "session-summary")
//
// summary.json: a system row "session created (...)" at created_at with
// the generated title, session summary, model, git root and branch,
// source workspace, fork parent (ParentSessionID) and message count, and
// rows at updated_at and last_active_at.
//
// # grok/updates (target "session-files"; updates.jsonl)
//
// The ACP session/update stream (and the xAI _x.ai/session/update
// extensions), one {timestamp (epoch seconds, a fraction allowed), method,
// params: {sessionId, update: {sessionUpdate, ...}}} per line, append-only:
// a /rewind rewrites chat_history.jsonl without the turns it undoes
// (rewind.rs handle_rewind replace_conversation) and appends a
// rewind_marker {target_prompt_index, created_at} here, so the undone
// turns live only in this file. It is read twice: the first read finds
// what each marker cut off (as above); the second writes each cut event
// as its row at its own time (a prompt a user row, a host turn a system
// row, a reply an assistant row, reasoning a thinking row, a tool_call a
// tool_use row with its rawInput, a completion a tool_result row with its
// content text or rawOutput, is_error for "failed"), and at the marker a
// system row "rewound by /rewind at <created_at>: <n> record(s), back to
// before prompt <N> (updates.jsonl lines a-b, kept as rows; ...)". An
// update carrying usage (turn_completed) is a system
// row at its time, "token usage of turn <prompt_id>: <model>: input N,
// cache read N, output N, reasoning N, cost $X" per model of modelUsage
// (name order; the flat counters when there is no modelUsage), naming
// only the counters present; the cost is costUsdTicks (1e-10 dollars)
// written exactly, a negative or non-integer tick count "not read". Model
// is set when one model is named. A turn reported again under the same
// prompt_id keeps both rows, the later one marked re-emitted with the
// first one's line (agentsview keeps only the last). The other updates
// (user_message_chunk, agent_message_chunk, tool_call, tool_call_update,
// available_commands_update, ...) of the live timeline stream the turns
// chat_history.jsonl holds: a Skip counted per kind,
// "session_update:<kind>". A line with no params.update is a
// skipped_record problem, a cut line a parse problem.
//
// # grok/signals (target "session-files"; signals.json)
//
// Grok Build's per-session counters (turnCount, userMessageCount,
// errorCount, toolFailureCount, cancellationCount, hasReverted,
// compactionCount, contextTokensUsed of contextWindowTokens, toolsUsed,
// modelsUsed, primaryModelId, gitCommitCount, prCreatedCount, lines added
// and removed by the agent and the person, latency, ...; the shape in
// agentsview's testdata/grok-build, generated through Grok Build's own
// types at 7cfcb20): one system row at the file mtime, every member that
// says something (a non-zero number, true, a non-empty string or list)
// named with its value in name order, the others counted ("N other
// members 0, false, empty or null"); Model primaryModelId. A file that is
// not an object is a problem, an empty object a Skip
// "no_evidence:empty_signals". agentsview reads only the token totals and
// the user message count from it.
//
// # grok/prompt-context (target "session-files"; prompt_context.json)
//
// {is_non_interactive, ...}: read as signals.json is, one row "prompt
// context (prompt_context.json): is_non_interactive true" at the file
// mtime (a headless run: agentsview 538600744 grok.go's only use of the
// file, its session kind "non-interactive").
//
// # grok/rewind-points (target "session-files"; rewind_points.jsonl)
//
// One RewindPoint per line {prompt_index, created_at, file_snapshots:
// {path: {path, content (null: the file did not exist), captured_at}},
// after_snapshots: {...}} (xai-grok-workspace session/file_state.rs): a
// system row at created_at, "rewind point of prompt N (rewind_points.jsonl):
// K file(s) snapshotted: <path> (<n> bytes), <path> (did not exist) before
// the prompt ran; ... after it". A snapshot holds a whole file's content:
// its size is named, the content never shown (the file is in the bundle).
// A /rewind to prompt N reverts the files from the points from N on and
// drops them (All, FilesOnly) or folds them into point N-1
// (ConversationOnly), so the file holds the points that survived; the
// rewind itself is updates.jsonl's rewind_marker. A line without
// prompt_index or file_snapshots is a skipped_record problem.
//
// # grok/feedback (target "session-files"; feedback.jsonl)
//
// LocalFeedbackEntry lines tagged type "user_feedback" (session/
// persistence.rs; submission: prod/mc/cli-chat-proxy-types
// feedback_types.rs FeedbackSubmission): a system row at submittedAt
// naming the rating (thumbs -1 down, 0 neutral, 1 up; stars 1-5; nps
// 0-10), the text the person wrote, the categories, feedback type, the
// client, the model rated (Model), the turn, and "asked for by Grok
// (request <id>)" for solicited feedback; a dismissed request is "feedback
// request dismissed". A system row, not a user row: the words rate the
// agent, they are not a prompt to it. The submission's copies of the last
// prompt and reply (lastUserMessage, lastAssistantMessage) are the
// conversation's, not repeated. Another type is a skipped_record problem.
//
// # grok/plan (target "session-files"; plan.json)
//
// The to-do list, TodoState {todos: {id: {content, priority, status}}} in
// Grok's order (an IndexMap, written whole by write_plan_state): one
// system row per item at the file mtime (the file records no time), "plan
// item <id> [<status>] (priority <p>): <content>", the priority only
// where recorded; an empty list a Skip "no_evidence:empty_plan".
//
// # grok/btw (target "session-files"; btw_history.jsonl)
//
// BtwEntry lines {btwSessionId, parentSessionId, askedAt, question,
// answer, model, success, error, attempts} (session/persistence.rs;
// acp_session_impl/recap.rs handle_side_question: one model call over the
// session's context under a new btw-<uuid> session): the question the
// person typed a user row at askedAt, the answer an assistant row with
// its model at the same time (inherited), a failure a system row with
// its attempts and error; SessionID the btw session, ParentSessionID the
// session it asked about. An entry with neither question nor answer is a
// skipped_record problem.
//
// # grok/subagent (target "subagents"; subagents/<id>/meta.json, output.json)
//
// SubagentMeta (agent/subagent/mod.rs: subagent_id, parent_session_id,
// child_session_id, subagent_type, description, prompt, status,
// started_at, completed_at, duration_ms, tool_calls, turns, error,
// effective_context_source, persona, resumed_from, child_cwd,
// worktree_path, snapshot_ref, effective_model_id, fork_copy_error): rows
// in the child session (its own chat_history.jsonl is in the sessions
// tree) with ParentSessionID the spawning session, so the child is linked
// to its parent: "subagent <type> <id> started (status ...): ..." at
// started_at, "subagent task (written by the parent's model, not
// typed): <prompt>" (a system row, never a user row), and "... ended" at
// completed_at. output.json {schema_version, output}: "subagent output
// returned to the parent (output.json): ..." at meta.json's completed_at
// (inherited). The catalog target is new (2026.12.03.7): before it
// subagents/ was not collected.
//
// # Validated against
//
// xai-org/grok-build @19d42e3 (crates/codegen/xai-grok-pager/docs/
// user-guide/17-sessions.md for the layout and GROK_HOME;
// xai-grok-agent/src/builder.rs for tool names) and the rows
// kenn-io/agentsview @538600744 generated through Grok Build's own types
// (internal/parser/testdata/grok-build; grok.go and grok_test.go read,
// not copied: the updates.jsonl usage shapes, modelUsage, prompt_id and
// costUsdTicks, and its timestamp anchors). The updates.jsonl envelope,
// the rewind marker and the replay rules, the <user_query> wrapping, the
// rewind points, feedback entries and plan from xai-org/grok-build at
// 19d42e3 (crates/codegen/xai-grok-shell: session/storage/mod.rs
// SessionUpdateEnvelope, filter_rewind_by, collect_prompts_from_events;
// extensions/notification.rs RewindMarker; session/acp_session_impl/
// rewind.rs and turn.rs; session/prompt_parser.rs; session/persistence.rs;
// xai-grok-workspace session/file_state.rs; xai-grok-tools grok_build/todo).
// npm @vibe-kit/grok-cli 0.0.34 (the only version the registry serves,
// dist/ read) keeps no session files: it writes ~/.grok/user-settings.json
// (its API key: collected as a secret, not read) and reads .grok/GROK.md.
// Synthetic fixture (testdata/README.md): Grok Build is a Rust binary not
// on npm, not run here.
//
// # Not read yet
//
// Turns a compaction dropped from chat_history.jsonl (Grok replaces it
// with the compacted history, ReplaceChatHistory) are in updates.jsonl
// before its compaction_checkpoint and are counted there as Skips, not
// rows: telling them from the tail a compacted history keeps needs the
// compaction_checkpoints/<id>.json file, which is not collected. The
// checkpoint itself (CompactionCheckpointInfo {checkpoint_id,
// prompt_index_at_compaction, checkpoint_file, auto_continue
// {prompt_text}, created_at}) is a system row at created_at naming the
// lines that hold the earlier turns and the auto-continue prompt Grok
// injected (not typed). The plan-mode state file and
// compaction_checkpoints/ are not read (the latter not collected);
// subagents/<id>/ files other than meta.json and output.json are not
// collected.
package grok

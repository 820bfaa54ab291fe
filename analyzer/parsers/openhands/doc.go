// Package openhands reads OpenHands (software-agent SDK, CLI and Agent
// Canvas) conversations under ~/.openhands.
//
// # openhands/event (target "events")
//
// .openhands/conversations/<hex>/, agent-canvas/conversations/<hex>/ and
// agent-canvas/dev_conversations/<hex>/: one events/event-<idx>-<id>.json
// per event (sdk conversation/persistence_const.py), a pydantic model
// discriminated by "kind". The session id is the folder name, RecordID
// the event id ("<id>#reasoning", "#thought", "#context", "#risk",
// "#decision" for rows derived from one event), ProjectPath the working
// directory in meta.json:
//
//   - MessageEvent: source user, role user is a user row; role assistant
//     an assistant row; reasoning_content a thinking row; a message with a
//     sender (another agent) is a system row "message from <sender>";
//     extended_content and activated skills are a system row "context added
//     to the message", never part of the user row.
//   - ActionEvent: reasoning_content (thinking), thought (assistant), the
//     call (tool_use: ToolName tool_name, ToolUseID tool_call_id, ToolInput
//     the call's arguments, Text the command or path); a security_risk other
//     than UNKNOWN is a system row "security risk: <level>".
//   - ObservationEvent: tool_result (Text the content, "exit code: N"
//     appended; IsError from is_error or a non-zero exit code);
//     UserRejectObservation: an error tool_result and "permission decision:
//     denied source=<user|hook>: <reason>"; AgentErrorEvent: an error
//     tool_result.
//   - HookExecutionEvent: "hook <type>: <command> exit=.. reason=..", and
//     "permission decision: denied source=hook" when it blocked.
//   - SystemPromptEvent, Condensation ("condensed: N earlier event(s)
//     forgotten from the model's view (their files stay)"),
//     CondensationRequest, CondensationSummaryEvent, PauseEvent,
//     InterruptEvent, ConversationErrorEvent: system rows;
//     ConversationStateUpdateEvent: confirmation_policy and
//     security_analyzer changes as "permission setting:" rows, agent as
//     "model: <m>", other keys Skip "state_only"; ACPToolCallEvent: a
//     tool_use and its tool_result; LLMCompletionLogEvent and streaming
//     events Skip "no_evidence:<kind>". An unknown kind is a skipped_record
//     problem.
//
// Times: the SDK stamps datetime.now().isoformat(), host-local with no
// zone. meta.json's created_at is UTC and the first event (the system
// prompt) follows it within seconds, so the first event's time minus
// created_at, rounded to 15 minutes (at most 14 h, within 5 minutes of a
// whole offset), is the host's offset: event times are corrected by it
// (the meta row says so) and written as recorded UTC. Without meta.json, or
// when no offset fits, they are emitted as if UTC with local-as-utc.
//
// # openhands/meta, openhands/base-state
//
// meta.json (agent_server models.py StoredConversation): "conversation
// created: <title> (working directory ..)" at created_at;
// forked_from_conversation_id gives "conversation forked from <id> at event
// <id>" and SessionState.ForkedFrom; parent_conversation_id "subagent <id>
// of <parent>" and ParentSessionID (event rows carry it too).
// base_state.json (sdk conversation/state.py ConversationState), at the
// file's mtime: "model setting: <agent.llm.model>", "permission setting:
// confirmation_policy=<kind> (threshold ..)" and "security_analyzer=..",
// blocked_actions / blocked_messages as "permission decision: denied
// source=hook", and one "token usage <usage id>: model=.. responses=N
// prompt_tokens=.. completion_tokens=.." row per usage id (the per-response
// entries summed). The agent's LLM api_key is never read into a row.
//
// # openhands/prompt-history (target "prompt-history", secondary)
//
// The CLI's projects/<sha256 of cwd>/prompt_history.json
// (openhands_cli/stores/prompt_history.py): [{text, timestamp}] oldest
// first, the last 100; one user row per entry at its host-local time
// (local-as-utc). Spec.Secondary window 15 hours (event times may be
// corrected to UTC).
//
// # openhands/legacy-session (target "legacy-sessions")
//
// Legacy 0.x sessions/<sid>/events/<n>.json: one system row per session
// (from 0.json, at its mtime) counting the event files, which are not
// parsed; every other file is a Skip "legacy_session_not_parsed".
//
// # Validated against
//
// Source: OpenHands/software-agent-sdk @611629e6999a (2026-08-22):
// openhands-sdk/openhands/sdk/event/** (the event models),
// conversation/state.py, conversation/persistence_const.py,
// llm/message.py, llm/utils/metrics.py; openhands-agent-server
// models.py (meta.json). OpenHands/OpenHands-CLI @6b3838ce9083
// (2026-05-18): openhands_cli/stores/prompt_history.py, locations.py.
// The seed's b347047, 33d8aa2 and 0403f1a are not in the snapshots read
// here. Synthetic fixtures in testdata/ from those models; no real install
// (the SDK and CLI are on PyPI, not reachable here).
//
// # Not read yet
//
//   - The legacy 0.x event bodies (reported, not parsed, as the seed says).
//   - settings.json, agent_settings.json, secrets.json, config.toml, .env
//     (kind secret): not in the seed's list.
//   - Agent Canvas browser storage (cloud origin, archive): needs a LevelDB
//     reader.
//   - Scratch worktree directories beyond meta.json's worktree flag.
package openhands

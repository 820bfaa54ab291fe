// Package agentzero reads Agent Zero (agent0ai) chats and settings under
// agent-zero/, agent-zero/<instance>/ or Desktop/agent-zero/ in a home,
// and at the root of an *a0_usr or a0-launcher-*-usr Docker or Podman
// volume (the catalog's Volumes roots).
//
// # agent-zero/chat (targets "chats", "tmp-chats")
//
// usr/chats/<ctxid>/chat.json (helpers/persist_chat.py
// _serialize_context), the v0.8.0 chats/<ctxid>.json layout and tmp/chats.
// One JSON object: id, name, created_at, type, agents [{number, data,
// history}], log {logs: the last 1000 UI log items}, data (the context's
// data). The log gives the rows and their times (each item's Unix
// timestamp), each agent's history (a JSON string holding History: bulks,
// topics, current, Message records sharing their id with the log item)
// the full text:
//
//   - user items: a user row, the text the history's user_message (with
//     attachments); for a subordinate agent (agentno > 0) a system row
//     "subagent task: ..", never user.
//   - agent items: the kvps thoughts as a thinking row (none: a Skip).
//   - tool, code_exe, browser, mcp, subagent items: a tool_use row
//     (ToolName from the heading's "tool '<name>'", ToolInput the kvps, Text
//     the code, command, query, url or path) and a tool_result row
//     (RecordID "<id>#output") whose text is the history's tool_result, or
//     the messages/<n>.txt file the history names when longer (the log
//     keeps 15,000 characters).
//   - response items: an assistant row. warning items: "permission
//     decision: denied source=policy: .." when the warning says a tool was
//     blocked, denied or not allowed, "permission decision: infection
//     check: .." for an Infection Check verdict, else "warning: ..".
//     error, info, hint, input items: system rows. util and progress: Skip.
//   - Subordinate agents: agent N's rows are in session "<ctxid>/agent<N>"
//     with ParentSessionID the superior's session.
//
// When the log holds its 1000 items, turns it lost are known from the
// histories alone: every history message gives undated rows (a user
// message, the agent's JSON reply as thinking plus tool_use, or an
// assistant row for the response tool, a tool result), SourceLine after
// the log's positions, and one system row says the log was cut. A history
// message whose id a log item still holds is that record in another form
// (identity: the shared message id): its row of a turn type the log
// item's rows have takes that row's record id (a tool result the log's
// "<id>#output") and the text the log row took from the history
// (user_message with attachments; tool_result or the longer messages
// file), so the correlate stage keeps the dated log row and counts the
// copy as a repeat, or keeps both with a duplicate_id problem when they
// differ; its other rows (a reply's thoughts under a response item) keep
// the history's name "<id>#<n>". The parser drops no copy.
//
// From the context data, and never any other key: project ("/a0/usr/
// projects/<name>" as ProjectPath, the container path); telegram_chat_id
// (with telegram_username), wa_chat_id, email_thread_id: "relayed through
// <platform> chat <id>" and SessionState Relayed yes (no otherwise);
// chat_model_override: "model override for this chat: preset_name=..
// provider=.. name=.." without its key. telegram_bot_cfg, which holds the
// bot token, is never read. An agent's data.responses_state (a turn chained
// on a provider-stored response) gives a system row and Synced yes.
//
// # agent-zero/chat-messages (target "chat-messages")
//
// messages/<n>.txt: read with the chat.json that names it; each file is a
// Skip "read_with_chat_json".
//
// # Secondary sources
//
// usr/scheduler/tasks.json (helpers/task_scheduler.py): per task a system
// row "scheduled task "<name>" (<type>, state, schedule): prompt: .." at
// created_at and its last_result as an assistant row at last_run, in the
// task's context (window 1 hour). The Telegram plugin's state.json
// {"chats": {"<bot>:<user>:<chat>": "<ctxid>"}}: one undated row per map
// entry in that chat's session, "session deleted: .." when the chat's
// chat.json is not among the collected files (window 0).
//
// # agent-zero/plugin-state (target "plugin-state")
//
// The _tool_access, _orchestrator and _infection_check config.json files
// (each top-level key a "permission setting: <plugin>.<key>=<value> at
// <scope>" row, values passed through parser.RedactSecrets) and their
// .toggle-0 / .toggle-1 switches (helpers/plugins.py: "plugin <name>
// disabled|enabled at <scope>"), at the file's mtime.
//
// # agent-zero/connector-env (target "connector-env", kind secret)
//
// The A0 CLI connector's ~/.agent-zero/.env (a0-connector
// src/agent_zero_cli/config.py): AGENT_ZERO_LAST_CONTEXT_ID and
// AGENT_ZERO_LAST_CONTEXT_HOST give "last chat used by the A0 CLI
// connector: <id> on <host> (local|remote instance)" in that chat's
// session and its SessionState Origin (local for a loopback host);
// AGENT_ZERO_COMPUTER_USE_ENABLED and _TRUST_MODE are permission setting
// rows (beyond the seed's two keys: they decide whether the agent may
// drive the desktop). Every other key, the computer-use restore token
// included, is a Skip "setting_not_read", never read into a row.
//
// # Validated against
//
// Source: agent0ai/agent-zero @2d95cd9fc01b (2026-04-03): helpers/
// persist_chat.py, helpers/log.py, helpers/history.py, agent.py,
// helpers/tool.py, extensions/python/hist_add_tool_result/
// _90_save_tool_call_file.py, helpers/task_scheduler.py, helpers/
// plugins.py, plugins/_telegram_integration, _whatsapp_integration,
// _email_integration, _model_config. The seed's e3051fb and ff2a5b9 are
// not in the snapshot read here; the _tool_access and _orchestrator plugins
// are not in it either, so their config.json keys are read generically.
// agent0ai/a0-connector @7e1fe0c1a97e (2026-05-06): src/agent_zero_cli/
// config.py (the .env keys); the seed's 3741c88 is not in the snapshot.
// Synthetic fixtures in testdata/; no real install (Agent Zero runs from
// its Docker image, not available here).
//
// # Not read yet
//
//   - The editor (ACP) session's mode, model and working directory
//     (data.acp_cwd) and the provider MCP approval warnings' exact wording:
//     from source at ff2a5b9, not in the snapshot read.
//   - usr/.env (kind secret): never read.
package agentzero

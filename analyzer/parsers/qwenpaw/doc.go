// Package qwenpaw reads QwenPaw (agentscope-ai/QwenPaw, formerly CoPaw), a
// personal assistant built on AgentScope that answers in a console and in
// chat channels (DingTalk, Feishu, WeChat, ...). Its working folder is
// ~/.qwenpaw, or ~/.copaw when that older folder exists
// (QWENPAW_WORKING_DIR moves it; not followed here), with one workspace a
// configured agent.
//
// Evidence: source at agentscope-ai/QwenPaw
// dcbc89443fd4b4bfcea557e46fa13f0a38bfd1b0 (src/qwenpaw/constant.py
// WORKING_DIR; app/runner/session.py SafeJSONSession._get_save_path and
// the .weixin-legacy archive; agents/context/agent_context.py state_dict,
// the compressed marks and the dialog archive; app/runner/models.py
// ChatSpec; agents/tools/agent_management.py chat_with_agent;
// agents/react_agent.py the hint messages) and kenn-io/agentsview
// internal/parser/qwenpaw.go at 538600744d1b87614d3746d36a0966c1f2ac1cad
// (which reads the session files only). QwenPaw is a PyPI package that
// needs a model provider and was not run here: the fixture is built from
// the source.
//
//   - qwenpaw/session: workspaces/<agent>/sessions/[<channel>/]<user>_<session>.json
//     ("<session>.json" without a user; ":" and other characters Windows
//     forbids become "--"), a JSON object streamed to agent.memory.content,
//     a list of [Msg, marks] (a bare Msg in older saves). A Msg is {id,
//     name, role user|assistant|system, content a string or blocks text,
//     thinking, tool_use {id, name, input, raw_input}, tool_result {id,
//     name, output}, image/audio/video {source}, metadata, timestamp
//     "YYYY-mm-dd HH:MM:SS.fff" in host-local time, read local-as-utc}.
//     A user message is a user row only when a person typed it: one
//     marked "hint" (the agent's own auto-continue prompt), one starting
//     "[Agent <id> requesting]" (another agent's chat_with_agent message)
//     and every user message of a session chats.json says a cron job
//     started (source cron) are system rows saying so. Tool results come
//     in system-role messages. A message marked "compressed" is kept and
//     followed by a row saying so; memory's _compressed_summary is a row.
//     Copies under sessions/.weixin-legacy/ (the originals QwenPaw kept
//     when it renamed weixin-- files to wechat--) keep their record ids
//     (the message ids) and carry a row saying where they come from.
//     Session id "<agent>:[<channel>:]<stem>".
//   - qwenpaw/chats (Trace): workspaces/<agent>/chats.json {chats: [ChatSpec
//     {id, name, session_id, user_id, channel, created_at, updated_at,
//     status, source chat|cron}]}: one row per chat at created_at (the
//     session file's parser gives the same row); a chat whose session file
//     was not collected says so, the trace of a deleted conversation.
//   - qwenpaw/dialog: workspaces/<agent>/dialog/<date>.jsonl, one Msg a
//     line: the messages compaction moved out of a session's memory. The
//     file does not name the session: rows carry the session
//     "<agent>:dialog" and record ids "<id>@dialog", each message followed
//     by a row saying it was compacted.
//
// Collected, not parsed: jobs.json (the cron jobs), config.json,
// HEARTBEAT.md, token_usage.json and the memory folder. The secret folder
// (~/.qwenpaw.secret) is never collected.
package qwenpaw

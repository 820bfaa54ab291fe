// Package nanobot reads nanobot (HKUDS) files under ~/.nanobot (or a
// ~/.nanobot<suffix> --home).
//
// Times nanobot writes with datetime.now().isoformat() are host-local
// with no zone: they are emitted as if UTC with time_basis local-as-utc
// (a time written with an offset is a recorded time). created_at_ms and
// updated_at_ms are true UTC.
//
// # nanobot/session (target "sessions")
//
// sessions/<workspace-id>/<base64url key>.jsonl (SessionManager.save), the
// legacy flat sessions/<channel_chat>.jsonl, .migration-conflicts/<stem>.
// <label>.<digest>.<hex>.jsonl (an older copy archived during the
// workspace migration; a system row says so) and jsonl-backup/. Lines:
//
//   - {"_type":"metadata", key, created_at, metadata, last_consolidated}:
//     "session: <key>; title: ..; N earlier message(s) consolidated into
//     memory; relayed through <channel> chat <id>", and "model preset:
//     <name>" from metadata._nanobot_model_preset. The key is the session
//     id (from the file name when the line has none); a key whose channel
//     is a chat platform (telegram, discord, slack, whatsapp, ...) gives
//     SessionState Relayed "yes", cli/websocket/api and the automation
//     channels "no". ProjectPath is the workspace path in the sibling
//     .workspace marker.
//   - {"_type":"provider_state"}: Skip "state_only".
//   - messages: user rows; assistant reasoning_content (thinking),
//     content (assistant) and tool_calls (tool_use, ToolUseID and RecordID
//     the call id, ToolInput the decoded arguments); tool messages
//     (tool_result, RecordID "<call id>#output"); an assistant message with
//     injected_event (a subagent_result) is a system row "subagent result
//     (task <id>): ..", never an assistant or user row; a user message with
//     sender_id "cron" is a system row "automation prompt: ..". An empty
//     assistant message is a Skip.
//
// Two workspaces' sessions may share a key ("cli:direct"); their rows
// differ by project path.
//
// # Secondary sources (window 15 hours, Spec.Secondary)
//
//   - nanobot/webui: webui/<safe key>.jsonl and <safe key>.segments/
//     NNNNNN.jsonl (transcript.py): user, stream_end / message (assistant),
//     reasoning_end (thinking), file_edit and fork_marker (system) at
//     created_at_ms; turn_end is a Skip. Session "websocket:<chat_id>".
//   - nanobot/cli-history: history/cli_history, prompt_toolkit FileHistory
//     ("# <local time>" then "+<line>"s): one user row per entry.
//   - nanobot/runs: cron/runs/*.json and triggers/runs/*.json
//     (utils/run_records.py): "automation run <id>: cron job "<name>"
//     status=<s> error=..; prompt: <rendered prompt>" (system) and the
//     response (assistant), at updated_at_ms.
//   - nanobot/webui-index: sessions/<ws>/.webui_session_index.json
//     (session_list_index.py): "session listed in the WebUI sidebar: <key>;
//     title; preview" at updated_at, "(its session file is not among the
//     collected files: deleted?)" when no collected session file of the
//     same folder has that key.
//
// # nanobot/memory-history (target "memory-history")
//
// memory/history.jsonl (agent/memory.py append_history): {cursor,
// timestamp "%Y-%m-%d %H:%M" local, content, session_key}: a system row
// "memory summary (recorded to the minute): .." (RecordID "memory:<cursor>").
//
// # Settings
//
// config.json (kind secret, ReadsSecretKind): tools.restrictToWorkspace,
// tools.exec enable / sandbox / sandboxRoBinds / sandboxRwBinds /
// allowPatterns / denyPatterns and channels.<name>.allowFrom only (camel
// or snake case), one "permission setting:" row per entry at the file's
// mtime; provider keys, bot tokens and every other key are never read.
// pairing.json (pairing/store.py): "permission setting: approved sender
// <id> on <channel>" per approved sender (file mtime) and "pending pairing
// request from sender <id> on <channel>, expires .." at its created_at.
//
// # Validated against
//
// Source: HKUDS/nanobot @3852956a71a9 (2026-08-23): nanobot/session/
// manager.py, nanobot/agent/loop.py (_save_turn persistence),
// nanobot/utils/helpers.py (build_assistant_message), nanobot/webui/
// transcript.py and session_list_index.py, nanobot/agent/memory.py,
// nanobot/cli/terminal.py (FileHistory), nanobot/utils/run_records.py,
// nanobot/cron/bound_runner.py, nanobot/triggers/local_store.py,
// nanobot/config/schema.py, nanobot/agent/tools/shell.py (ExecToolConfig),
// nanobot/channels/base.py (allowFrom), nanobot/pairing/store.py. The
// seed's acdae3d and 909b277 are not in the snapshot read here. Synthetic
// fixtures in testdata/; no real install (nanobot is on PyPI, not reachable
// here).
//
// # Not read yet
//
//   - sessions/<workspace-id>/sessions.sqlite3 (the session database of
//     newer builds, tables sessions and messages): its writer is not in the
//     source read here (the seed's 909b277 "may not be released yet"), so
//     its schema cannot be checked; collected, not parsed. Until it is, the
//     session JSONL files beside it are read as primary, not secondary.
//   - The seed's "relay" and "model switch" rows from 909b277 beyond the
//     session key's channel and the metadata model preset.
package nanobot

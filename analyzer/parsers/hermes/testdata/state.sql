-- state.db tables as hermes_state_common.py SCHEMA_SQL creates them
-- (NousResearch/hermes-agent @00704d0, SCHEMA_VERSION 30), the columns
-- the parser reads and their neighbours.
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (30);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, session_key TEXT, chat_id TEXT, chat_type TEXT,
    thread_id TEXT, display_name TEXT, origin_json TEXT, model TEXT, model_config TEXT, system_prompt TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, message_count INTEGER DEFAULT 0,
    cwd TEXT, billing_provider TEXT, title TEXT, profile_name TEXT, rewind_count INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0, hidden INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER,
    finish_reason TEXT, reasoning TEXT, reasoning_content TEXT, active INTEGER NOT NULL DEFAULT 1,
    compacted INTEGER NOT NULL DEFAULT 0, display_kind TEXT
);
CREATE TABLE session_model_usage (
    session_id TEXT NOT NULL, model TEXT NOT NULL, billing_provider TEXT NOT NULL DEFAULT '', billing_base_url TEXT NOT NULL DEFAULT '',
    billing_mode TEXT NOT NULL DEFAULT '', task TEXT NOT NULL DEFAULT '', api_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0, first_seen REAL, last_seen REAL,
    PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode, task)
);
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE conversation_generations (source TEXT NOT NULL, session_key TEXT NOT NULL, generation INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (source, session_key));
INSERT INTO sessions (id, source, model, model_config, started_at, ended_at, end_reason, cwd, title, rewind_count) VALUES
 ('20260810_090000_a1b2c3', 'cli', 'anthropic/claude-sonnet-4.5', '{}', 1786352400.5, 1786353000, 'new_session', '/home/ex/site', 'Clean logs', 1);
INSERT INTO sessions (id, source, user_id, session_key, chat_id, chat_type, display_name, model, started_at, cwd) VALUES
 ('20260810_100000_tg0001', 'telegram', '4242', 'agent:main:telegram:dm:4242', '4242', 'dm', 'Anna', 'openai/gpt-5', 1786356000, '/home/ex');
INSERT INTO sessions (id, source, model, model_config, parent_session_id, started_at) VALUES
 ('20260810_090100_sub001', 'cli', 'anthropic/claude-haiku-4.5', '{"_delegate_from": "20260810_090000_a1b2c3"}', '20260810_090000_a1b2c3', 1786352460),
 ('20260810_091500_br0001', 'cli', 'anthropic/claude-sonnet-4.5', '{"_branched_from": "20260810_090000_a1b2c3"}', '20260810_090000_a1b2c3', 1786353300);
INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, reasoning_content, active, compacted, display_kind) VALUES
 ('20260810_090000_a1b2c3', 'user', 'delete the old logs', NULL, NULL, NULL, 1786352401, NULL, 1, 0, NULL),
 ('20260810_090000_a1b2c3', 'assistant', '', NULL, '[{"id": "call_h1", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"rm -rf logs/*.old\"}"}}]', NULL, 1786352402, 'Old logs are safe to remove.', 1, 0, NULL),
 ('20260810_090000_a1b2c3', 'tool', '{"output": "", "exit_code": 0}', 'call_h1', NULL, 'terminal', 1786352403, NULL, 1, 0, NULL),
 ('20260810_090000_a1b2c3', 'assistant', 'Removed the old logs.', NULL, NULL, NULL, 1786352404, NULL, 1, 0, NULL),
 ('20260810_090000_a1b2c3', 'user', 'also wipe the database', NULL, NULL, NULL, 1786352500, NULL, 0, 0, NULL),
 ('20260810_090000_a1b2c3', 'assistant', 'I will not wipe it without a backup.', NULL, NULL, NULL, 1786352501, NULL, 0, 1, NULL),
 ('20260810_090000_a1b2c3', 'user', '[System: the user switched model]', NULL, NULL, NULL, 1786352502, NULL, 1, 0, 'hidden'),
 ('20260810_090000_a1b2c3', 'assistant', '', NULL, NULL, NULL, 1786352503, NULL, 1, 0, NULL),
 ('20260810_100000_tg0001', 'user', 'what is on my calendar?', NULL, NULL, NULL, 1786356001, NULL, 1, 0, NULL),
 ('20260810_100000_tg0001', 'assistant', 'Two meetings.', NULL, NULL, NULL, 1786356002, NULL, 1, 0, NULL),
 ('20260810_090100_sub001', 'user', 'check disk usage of logs/', NULL, NULL, NULL, 1786352461, NULL, 1, 0, NULL),
 ('20260801_000000_gone01', 'user', 'a message whose session row was deleted', NULL, NULL, NULL, 1785542400, NULL, 1, 0, NULL);
INSERT INTO session_model_usage VALUES
 ('20260810_090000_a1b2c3', 'anthropic/claude-sonnet-4.5', 'openrouter', '', '', '', 3, 1500, 200, 1786352401, 1786352404),
 ('20260810_090000_a1b2c3', 'openai/gpt-5', 'openrouter', '', '', '', 1, 900, 40, 1786352600, 1786352600);
INSERT INTO state_meta VALUES
 ('heartbeat:hb1', '{"prompt": "check the backups", "interval_seconds": 3600, "status": "active", "created_at": 1786350000.0, "last_fired_at": 1786353600.0, "fire_count": 2}'),
 ('deleted_sessions_fence', '{"session_ids": ["20260801_000000_gone01"], "at": 1786000000}'),
 ('fts_storage_version', '3');
INSERT INTO conversation_generations VALUES ('telegram', 'agent:main:telegram:dm:4242', 3);

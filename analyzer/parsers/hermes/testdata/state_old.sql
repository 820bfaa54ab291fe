-- an early state.db: messages before the active/compacted/display_kind
-- columns, sessions before title and rewind_count.
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('old1', 'cli', 'nous/hermes-4', NULL, 1760000000, NULL, NULL);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('old1', 'user', 'hi', 1760000001), ('old1', 'assistant', 'Hello!', 1760000002);

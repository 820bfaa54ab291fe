-- The oldest schema (initial migration only: no provider or is_summary_message) with a bad parts value and an unknown part type.
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0, updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER);
INSERT INTO sessions VALUES ('s-old', NULL, 'Old', 3, 0, 0, 0.0, 1745500000000, 1745500000000);
INSERT INTO messages VALUES ('a', 's-old', 'user', '[{"type":"text","data":{"text":"hello"}}', NULL, 1745500000000, 1745500000000, NULL);
INSERT INTO messages VALUES ('b', 's-old', 'user', '[{"type":"text","data":{"text":"second try"}},{"type":"video","data":{}}]', NULL, 1745500001000, 1745500001000, NULL);
INSERT INTO messages VALUES ('c', 's-old', 'assistant', '[{"type":"text","data":{"text":"hi"}}]', 'gpt-4o', 1745500002000, 1745500002000, NULL);
-- files, as the initial migration creates it (no snapshots here)
CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE(path, session_id, version));

-- app/store/database.go (ollama/ollama @fb30760, v0.33.0-rc2) schema 18:
-- the tables the parser reads, as the app creates them; times as
-- mattn/go-sqlite3 writes a Go time.Time.
CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), device_id TEXT NOT NULL DEFAULT '', schema_version INTEGER NOT NULL DEFAULT 18);
INSERT INTO settings (id, device_id) VALUES (1, 'dev-1');
CREATE TABLE chats (
	id TEXT PRIMARY KEY,
	title TEXT NOT NULL DEFAULT '',
	created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
	browser_state TEXT
);
CREATE TABLE messages (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	chat_id TEXT NOT NULL,
	role TEXT NOT NULL,
	content TEXT NOT NULL DEFAULT '',
	thinking TEXT NOT NULL DEFAULT '',
	stream BOOLEAN NOT NULL DEFAULT 0,
	model_name TEXT,
	model_cloud BOOLEAN,
	model_ollama_host BOOLEAN,
	created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
	updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
	thinking_time_start TIMESTAMP,
	thinking_time_end TIMESTAMP,
	tool_result TEXT,
	FOREIGN KEY (chat_id) REFERENCES chats(id) ON DELETE CASCADE
);
CREATE TABLE tool_calls (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	message_id INTEGER NOT NULL,
	type TEXT NOT NULL,
	function_name TEXT NOT NULL,
	function_arguments TEXT NOT NULL,
	function_result TEXT,
	FOREIGN KEY (message_id) REFERENCES messages(id) ON DELETE CASCADE
);
CREATE TABLE attachments (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	message_id INTEGER NOT NULL,
	filename TEXT NOT NULL,
	data BLOB NOT NULL,
	FOREIGN KEY (message_id) REFERENCES messages(id) ON DELETE CASCADE
);
CREATE TABLE users (name TEXT NOT NULL DEFAULT '', email TEXT NOT NULL DEFAULT '', plan TEXT NOT NULL DEFAULT '', cached_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
INSERT INTO users VALUES ('Ex Aminer', 'ex@example.com', 'free', '2026-08-01 09:00:00');
INSERT INTO chats VALUES ('c0ffee00-0000-4000-8000-000000000001', 'Weather in Lisbon', '2026-08-01 11:00:00.000000000+02:00', '{"page_stack":["https://example.com/lisbon"]}');
INSERT INTO messages (chat_id, role, content, thinking, stream, model_name, created_at, updated_at, thinking_time_start, thinking_time_end, tool_result) VALUES
 ('c0ffee00-0000-4000-8000-000000000001', 'user', 'what is the weather in Lisbon?', '', 0, 'gpt-oss:20b', '2026-08-01 11:00:01.000000000+02:00', '2026-08-01 11:00:01.000000000+02:00', NULL, NULL, NULL),
 ('c0ffee00-0000-4000-8000-000000000001', 'assistant', '', 'Search the web for it.', 1, 'gpt-oss:20b', '2026-08-01 11:00:02.000000000+02:00', '2026-08-01 11:00:04.000000000+02:00', '2026-08-01 11:00:02.500000000+02:00', '2026-08-01 11:00:03.000000000+02:00', NULL),
 ('c0ffee00-0000-4000-8000-000000000001', 'tool', '{"results":[{"title":"Lisbon weather","content":"Sunny, 28C"}]}', '', 0, NULL, '2026-08-01 11:00:05.000000000+02:00', '2026-08-01 11:00:05.000000000+02:00', NULL, NULL, '{"results":[]}'),
 ('c0ffee00-0000-4000-8000-000000000001', 'tool', 'Error: fetch failed: timeout', '', 0, NULL, '2026-08-01 11:00:06.000000000+02:00', '2026-08-01 11:00:06.000000000+02:00', NULL, NULL, NULL),
 ('c0ffee00-0000-4000-8000-000000000001', 'assistant', 'It is sunny and 28C in Lisbon.', '', 1, 'gpt-oss:20b', '2026-08-01 11:00:07.000000000+02:00', '2026-08-01 11:00:07.000000000+02:00', NULL, NULL, NULL),
 ('c0ffee00-0000-4000-8000-000000000001', 'user', 'read this file', '', 0, 'qwen3:8b', '2026-08-01 11:05:00.000000000+02:00', '2026-08-01 11:05:00.000000000+02:00', NULL, NULL, NULL),
 ('c0ffee00-0000-4000-8000-000000000001', 'assistant', '', '', 1, 'qwen3:8b', '2026-08-01 11:05:01.000000000+02:00', '2026-08-01 11:05:01.000000000+02:00', NULL, NULL, NULL),
 ('deadbeef-0000-4000-8000-000000000002', 'user', 'a prompt whose chat row is gone', '', 0, NULL, '2026-08-01 12:00:00', '2026-08-01 12:00:00', NULL, NULL, NULL);
INSERT INTO tool_calls (message_id, type, function_name, function_arguments, function_result) VALUES
 (2, 'function', 'web_search', '{"query":"Lisbon weather today"}', NULL),
 (2, 'function', 'web_fetch', '{"url":"https://example.com/lisbon"}', NULL),
 (99, 'function', 'web_fetch', '{"url":"https://example.com/gone"}', NULL);
INSERT INTO attachments (message_id, filename, data) VALUES (6, 'notes.txt', X'68656C6C6F20776F726C64');

-- An early schema (before migrateV3ToV4 added messages.tool_result and
-- migrateV8ToV9 chats.browser_state): columns are read by name.
CREATE TABLE chats (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, chat_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL DEFAULT '', thinking TEXT NOT NULL DEFAULT '', stream BOOLEAN NOT NULL DEFAULT 0, model_name TEXT, created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE tool_calls (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id INTEGER NOT NULL, type TEXT NOT NULL, function_name TEXT NOT NULL, function_arguments TEXT NOT NULL, function_result TEXT);
INSERT INTO chats VALUES ('old-chat', 'hello', '2025-09-01 08:00:00');
INSERT INTO messages (chat_id, role, content, model_name, created_at, updated_at) VALUES ('old-chat', 'user', 'hello there', 'llama3.2', '2025-09-01 08:00:01', '2025-09-01 08:00:01'), ('old-chat', 'assistant', 'Hi!', 'llama3.2', '2025-09-01 08:00:02', '2025-09-01 08:00:02');

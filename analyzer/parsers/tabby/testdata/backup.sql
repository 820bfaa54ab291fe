CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT, auth_token TEXT);
CREATE TABLE threads(id INTEGER PRIMARY KEY, is_ephemeral BOOLEAN, user_id INTEGER, created_at TIMESTAMP, updated_at TIMESTAMP, relevant_questions BLOB);
CREATE TABLE thread_messages(id INTEGER PRIMARY KEY, thread_id INTEGER, role TEXT, content TEXT, created_at TIMESTAMP, updated_at TIMESTAMP, code_source_id VARCHAR(255), attachment BLOB NOT NULL DEFAULT '{}');
INSERT INTO users VALUES (1, 'alice@example.com', 'x');
INSERT INTO threads VALUES (9, 1, 1, '2026-09-30 17:00:00', '2026-09-30 17:00:00', NULL);
INSERT INTO thread_messages VALUES (20, 9, 'user', 'delete the staging database', '2026-09-30 17:00:01', '2026-09-30 17:00:01', NULL, '{}');
INSERT INTO thread_messages VALUES (21, 9, 'assistant', 'Run DROP DATABASE staging;', '2026-09-30 17:00:04', '2026-09-30 17:00:04', NULL, '{}');

-- Shape assumed (not public): a conversations table naming each indexed
-- conversation, beside an FTS5-style content table that is skipped.
CREATE TABLE conversations (conversationId TEXT PRIMARY KEY, title TEXT, workspacePath TEXT, source TEXT, updatedAt INTEGER);
CREATE TABLE conversation_fts_content (id INTEGER PRIMARY KEY, c0 TEXT, c1 TEXT);
INSERT INTO conversations VALUES ('aaaaaaaa-0000-4000-8000-000000000001', 'List the Go files', '/home/examiner/proj', 'local', 1784628900000);
INSERT INTO conversations VALUES ('bc-0001', NULL, NULL, 'cloud-cache', 1784630000000);
INSERT INTO conversation_fts_content VALUES (1, 'aaaaaaaa-0000-4000-8000-000000000001', 'list the go files');

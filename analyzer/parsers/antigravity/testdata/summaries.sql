CREATE TABLE summaries (conversation_id TEXT PRIMARY KEY, title TEXT, updated_at INTEGER, summary BLOB);
INSERT INTO summaries VALUES ('8b1c0000-0000-4000-8000-0000000000c1', 'Clean the build', 1791882100, x'0a0b636c65616e206275696c64');

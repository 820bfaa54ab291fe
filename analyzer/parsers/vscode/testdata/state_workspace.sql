CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('chat.ChatSessionStore.index', '{"version":1,"entries":{}}');
INSERT INTO ItemTable VALUES ('chat/autoconfirm', '["copilot_replaceString"]');

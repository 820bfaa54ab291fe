CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('sourcegraph.cody-ai', '{"cody-last-used-chat-modality": "sidebar"}');

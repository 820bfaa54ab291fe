CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('sourcegraph.cody-ai', '{"cody-local-chatHistory-v2": [1,2], "cody-model-preferences": 3}');
INSERT INTO ItemTable VALUES ('Sourcegraph.cody-ai-not', 'x');

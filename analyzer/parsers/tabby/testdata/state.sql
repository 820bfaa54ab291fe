CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('TabbyML.vscode-tabby', '{"edit.recentlyCommand": ["convert to async", "add docstrings"], "notifications.mutedKeys": []}');

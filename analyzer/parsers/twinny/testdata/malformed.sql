CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('rjmacarthy.twinny', '{"twinny.conversations": {"bad": 3}, "twinny.teamPolicy": []}');

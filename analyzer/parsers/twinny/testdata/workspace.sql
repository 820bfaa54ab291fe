CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('rjmacarthy.twinny', '{"reviewOwner": "acme", "reviewRepo": "api", "autoScroll": true}');

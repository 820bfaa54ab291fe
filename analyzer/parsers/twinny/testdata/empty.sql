CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('rjmacarthy.twinny', '{"autoScroll": true}');
INSERT INTO ItemTable VALUES ('other', 'x');

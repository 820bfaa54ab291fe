-- Cursor 3.26+: the header list is kept in composerConvHeaders chunks, not
-- inline in composerData. The second chunk is written first (rowid order
-- differs from key order) and holds its list inside an object.
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, value TEXT);
INSERT INTO cursorDiskKV VALUES ('composerData:12121212-0000-4000-8000-000000000008', '{"_v":14,"composerId":"12121212-0000-4000-8000-000000000008","name":"Chunked","createdAt":1784628000000,"lastUpdatedAt":1784628900000,"status":"completed","modelConfig":{"modelName":"composer-2"}}');
INSERT INTO cursorDiskKV VALUES ('composerConvHeaders:12121212-0000-4000-8000-000000000008:000001', '{"headers":[{"bubbleId":"k3","type":1},{"bubbleId":"k4","type":2}]}');
INSERT INTO cursorDiskKV VALUES ('composerConvHeaders:12121212-0000-4000-8000-000000000008:000000', '[{"bubbleId":"k1","type":1},{"bubbleId":"k2","type":2}]');
INSERT INTO cursorDiskKV VALUES ('bubbleId:12121212-0000-4000-8000-000000000008:k4', '{"_v":3,"type":2,"bubbleId":"k4","text":"second reply","createdAt":"2026-07-21T10:03:00Z"}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:12121212-0000-4000-8000-000000000008:k3', '{"_v":3,"type":1,"bubbleId":"k3","text":"second prompt","createdAt":"2026-07-21T10:02:00Z"}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:12121212-0000-4000-8000-000000000008:k2', '{"_v":3,"type":2,"bubbleId":"k2","text":"first reply","createdAt":"2026-07-21T10:01:00Z"}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:12121212-0000-4000-8000-000000000008:k1', '{"_v":3,"type":1,"bubbleId":"k1","text":"first prompt","createdAt":"2026-07-21T10:00:30Z"}');
INSERT INTO composerHeaders VALUES ('12121212-0000-4000-8000-000000000008', NULL, 1784628000000, 1784628900000, '{"composerId":"12121212-0000-4000-8000-000000000008","name":"Chunked"}');

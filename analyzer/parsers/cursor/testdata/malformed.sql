-- Bad JSON values: a composerData, a bubble and a composerHeaders value.
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, value TEXT);
INSERT INTO cursorDiskKV VALUES ('composerData:bbbbbbbb-0000-4000-8000-000000000003', '{"_v":10,"composerId":"bbbbbbbb-0000-4000-8000-0000');
INSERT INTO cursorDiskKV VALUES ('bubbleId:bbbbbbbb-0000-4000-8000-000000000003:x1', '{"_v":3,"type":1,"bubbleId":"x1","text":"still here","createdAt":"2026-07-21T10:05:00Z"}');
INSERT INTO cursorDiskKV VALUES ('composerData:cccccccc-0000-4000-8000-000000000004', '{"_v":10,"composerId":"cccccccc-0000-4000-8000-000000000004","createdAt":1784628000000,"fullConversationHeadersOnly":[{"bubbleId":"c1","type":2},{"bubbleId":"c2","type":2}]}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:cccccccc-0000-4000-8000-000000000004:c1', '{"_v":3,"type":2,"text":"cut sh');
INSERT INTO cursorDiskKV VALUES ('bubbleId:cccccccc-0000-4000-8000-000000000004:c2', '{"_v":3,"type":2,"bubbleId":"c2","text":"good bubble after a bad one","createdAt":"2026-07-21T10:06:00Z"}');
INSERT INTO composerHeaders VALUES ('bbbbbbbb-0000-4000-8000-000000000003', NULL, 1784628000000, 1784628900000, '{"composerId":');

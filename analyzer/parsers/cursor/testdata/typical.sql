-- Cursor 3.25-style global state.vscdb: one live composer (A) and one
-- deleted composer (D) whose composerHeaders row outlived its composerData
-- and bubbles.
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, value TEXT);

INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'SECRET-ACCESS-TOKEN-DO-NOT-PRINT');
INSERT INTO ItemTable VALUES ('src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser',
 '{"composerState":{"useYoloMode":true,"yoloCommandAllowlist":["git status","ls"],"yoloCommandDenylist":["rm"],"yoloDeleteFileDisabled":true,"mainComposerMode":"agent","githubAccessToken":"SECRET-GH-TOKEN"},"aiSettings":{"modelConfig":{"composer":{"modelName":"gpt-5"},"cmd-k":{"modelName":"gpt-5"},"chat":{"modelName":"claude-4.5-sonnet"}}},"cachedGithubToken":"SECRET-GH-TOKEN-2"}');

INSERT INTO cursorDiskKV VALUES ('composerData:aaaaaaaa-0000-4000-8000-000000000001',
 '{"_v":10,"composerId":"aaaaaaaa-0000-4000-8000-000000000001","name":"List the Go files","createdAt":1784628000000,"lastUpdatedAt":1784628900000,"status":"completed","text":"","modelConfig":{"modelName":"default"},"workspaceIdentifier":{"id":"9f1c","uri":{"fsPath":"/home/examiner/proj","scheme":"file"}},"fullConversationHeadersOnly":[{"bubbleId":"b1","type":1},{"bubbleId":"b2","type":2},{"bubbleId":"b3","type":2},{"bubbleId":"b4","type":2}]}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b1',
 '{"_v":3,"type":1,"bubbleId":"b1","text":"list the go files","richText":"{\"root\":{\"children\":[{\"children\":[{\"text\":\"list the go files\",\"type\":\"text\"}],\"type\":\"paragraph\"}],\"type\":\"root\"}}","createdAt":"2026-07-21T10:11:05.000Z","modelInfo":{"modelName":"gpt-5"},"tokenCount":{"inputTokens":0,"outputTokens":0}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b2',
 '{"_v":3,"type":2,"bubbleId":"b2","text":"","thinking":{"text":"The user wants the Go files; ls will do.","signature":""},"createdAt":"2026-07-21T10:11:06.500Z"}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b3',
 '{"_v":3,"type":2,"bubbleId":"b3","text":"","createdAt":"2026-07-21T10:11:07.000Z","toolFormerData":{"tool":15,"name":"run_terminal_cmd","toolCallId":"toolu_01RunLs","rawArgs":"{\"command\":\"ls *.go\",\"is_background\":false,\"explanation\":\"list Go files\"}","params":"{\"command\":\"ls *.go\",\"requireUserApproval\":true}","result":"{\"output\":\"main.go\\n\",\"exitCode\":0,\"rejected\":false}","status":"completed","additionalData":{"status":"success"},"userDecision":"accepted","selectedOption":"run"}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:aaaaaaaa-0000-4000-8000-000000000001:b4',
 '{"_v":3,"type":2,"bubbleId":"b4","text":"There is one Go file: main.go.","createdAt":"2026-07-21T10:11:09.000Z","modelInfo":{"modelName":"gpt-5"}}');

INSERT INTO composerHeaders VALUES ('aaaaaaaa-0000-4000-8000-000000000001', '9f1c', 1784628000000, 1784628900000,
 '{"composerId":"aaaaaaaa-0000-4000-8000-000000000001","name":"List the Go files","createdAt":1784628000000,"lastUpdatedAt":1784628900000,"unifiedMode":"agent","workspaceIdentifier":{"id":"9f1c","uri":{"fsPath":"/home/examiner/proj"}}}');
INSERT INTO composerHeaders VALUES ('dddddddd-0000-4000-8000-000000000002', '9f1c', 1784629500000, 1784630400000,
 '{"composerId":"dddddddd-0000-4000-8000-000000000002","name":"Delete the temp dir","createdAt":1784629500000,"lastUpdatedAt":1784630400000,"unifiedMode":"agent","workspaceIdentifier":{"id":"9f1c","uri":{"fsPath":"/home/examiner/proj"}}}');

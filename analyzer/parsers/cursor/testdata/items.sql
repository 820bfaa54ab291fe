-- Editor-level ItemTable records of a Cursor 3.26 global state.vscdb: the
-- GitHub sign-in, two cloud agents (one also a composer here), the cloud
-- environment's repositories, a cloud agent's MCP authorisation, plugin
-- MCP servers (one key literal, one base64) with their secret rows, the
-- installed plugins; and a deleted composer whose messages survive as
-- agentKv:blob:* records (one JSON blob naming it, one linking blob, one
-- blob of another conversation).
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, value TEXT);
INSERT INTO ItemTable VALUES ('github-alice', '[{"id":"anysphere.cursor-retrieval","name":"Cursor Retrieval","allowed":true,"lastUsed":1784620000000},{"id":"evil.ext","name":"Evil","allowed":false}]');
INSERT INTO ItemTable VALUES ('github-alice-usages', '[{"extensionId":"anysphere.cursor-retrieval","extensionName":"Cursor Retrieval","lastUsed":1784627000000,"scopes":["repo","read:user"]}]');
INSERT INTO ItemTable VALUES ('github-enterprise-bob-usages', '[{"extensionId":"x.y","extensionName":"XY","lastUsed":1784627000000}]');
INSERT INTO ItemTable VALUES ('github-not-an-account', '{"some":"object"}');
INSERT INTO ItemTable VALUES ('cursorAuth/cachedGithubToken', 'SECRET-GH');
INSERT INTO ItemTable VALUES ('cloudAgentRepository.agents.team-7', '[{"bcId":"bc-1111","name":"Fix the flaky test","status":1,"createdAt":1784628000000,"updatedAt":1784628600000,"isArchived":true,"repoUrl":"github.com/acme/api","branchName":"cursor/fix-flaky","modelDetails":{"modelName":"claude-4.5-sonnet"},"connectionToken":"SECRET-CONN"},{"bcId":"bc-2222","name":"Bump deps","status":"FINISHED","updatedAt":1784629000000}]');
INSERT INTO ItemTable VALUES ('cloudEnvironmentTemplate.githubRepos', '["acme/api",{"owner":"acme","name":"web"}]');
INSERT INTO ItemTable VALUES ('cloudAgentRepository.mcpAuthResolution', '{"bc-2222":{"serverName":"google-calendar","resolution":"approved","resolvedAt":1784628900000}}');
INSERT INTO ItemTable VALUES ('mcpOAuth.global.[plugin-google-calendar-google-calendar]', '{"serverUrl":"https://calendar.mcp.example/mcp?key=SECRET-Q","clientId":"cid-1","createdAt":1784628800000}');
INSERT INTO ItemTable VALUES ('mcpOAuth.global.W3BsdWdpbi1saW5lYXItbGluZWFyXQ==', '{"url":"https://mcp.linear.example/sse"}');
INSERT INTO ItemTable VALUES ('mcpOAuth.secret.[plugin-google-calendar-google-calendar]', '{"type":"Buffer","data":[118,49,48,1,2,3]}');
INSERT INTO ItemTable VALUES ('cursor.plugins.installedIds.no-team|no-workspace', '[{"id":"677","sources":["user"]}]');
INSERT INTO ItemTable VALUES ('cursor.plugins.installedIds.no-team|file:///home/examiner/proj', '["plugin-aws"]');
INSERT INTO cursorDiskKV VALUES ('composerData:bc-1111', '{"composerId":"bc-1111","name":"Fix the flaky test","createdAt":1784628000000}');
INSERT INTO composerHeaders VALUES ('bc-1111', '', 1784628000000, 1784628600000, '{"composerId":"bc-1111","name":"Fix the flaky test"}');
INSERT INTO composerHeaders VALUES ('d0d0d0d0-0000-4000-8000-00000000000e', '9f1c', 1784630000000, 1784630400000, '{"composerId":"d0d0d0d0-0000-4000-8000-00000000000e","name":"Drop the table","workspaceIdentifier":{"id":"9f1c","uri":{"fsPath":"/home/examiner/proj"}}}');
INSERT INTO cursorDiskKV VALUES ('agentKv:blob:1a2b', '{"role":"user","content":"<user_info>conversation d0d0d0d0-0000-4000-8000-00000000000e</user_info>\n<user_query>\ndrop the users table\n</user_query>","providerOptions":{"cursor":{"composerId":"d0d0d0d0-0000-4000-8000-00000000000e"}}}');
INSERT INTO cursorDiskKV VALUES ('agentKv:blob:3c4d', '{"id":"1","role":"assistant","content":[{"type":"reasoning","text":"A destructive query; do it."},{"type":"text","text":"Dropping it."},{"type":"tool-call","toolCallId":"toolu_drop","toolName":"Shell","args":{"command":"psql -c \"DROP TABLE users\""}}],"providerOptions":{"cursor":{"composerId":"d0d0d0d0-0000-4000-8000-00000000000e"}}}');
INSERT INTO cursorDiskKV VALUES ('agentKv:blob:5e6f', X'0A20AABBCCDD');
INSERT INTO cursorDiskKV VALUES ('agentKv:blob:7a8b', '{"role":"user","content":"<user_query>another conversation</user_query>"}');

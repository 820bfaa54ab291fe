CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('workbench.panel.chat', '{"collapsed":false}');
INSERT INTO ItemTable VALUES ('chat/autoconfirm', '["copilot_runInTerminal","mcp_github_create_issue"]');
INSERT INTO ItemTable VALUES ('chat/servers/autoconfirm-post', '["mcp.config.usrlocal.playwright"]');
INSERT INTO ItemTable VALUES ('chat/autoconfirm-combination', '"[\"copilot_readFile:{\\\"filePath\\\":\\\"/etc/hosts\\\"}\"]"');
INSERT INTO ItemTable VALUES ('GitHub.copilot-chat', '{"github.copilot.cloudAgent.ownedTasks":{"task-1111":1762300000000,"task-2222":{"recordedAt":1762400000000,"application":"github.com"}},"github.copilot.some.token":"gho_secretvalue"}');
INSERT INTO ItemTable VALUES ('chat/autoconfirm-post', 'not json');

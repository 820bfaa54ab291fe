-- Flowise database.sqlite: the final schema of the SQLite migrations in
-- packages/server/src/database/migrations/sqlite/ at FlowiseAI/Flowise@ababf4c
-- (Init, AddChatHistory, AddUsedToolsToChatMessage, ..., AddAgentReasoningToChatMessage,
-- AddActionToChatMessage, AddExecutionEntity, reasonContent); synthetic rows.
CREATE TABLE "chat_flow" ("id" varchar PRIMARY KEY NOT NULL, "name" varchar NOT NULL, "flowData" text NOT NULL, "deployed" boolean, "isPublic" boolean, "apikeyid" varchar, "chatbotConfig" text, "createdDate" datetime NOT NULL DEFAULT (datetime('now')), "updatedDate" datetime NOT NULL DEFAULT (datetime('now')), "apiConfig" TEXT, "analytic" TEXT, "category" TEXT, "speechToText" TEXT, "type" TEXT, "workspaceId" TEXT, "followUpPrompts" TEXT, "textToSpeech" TEXT);
CREATE TABLE "chat_message" ("id" varchar PRIMARY KEY NOT NULL, "role" varchar NOT NULL, "chatflowid" varchar NOT NULL, "content" text NOT NULL, "sourceDocuments" text, "usedTools" text, "fileAnnotations" text, "fileUploads" text, "createdDate" datetime NOT NULL DEFAULT (datetime('now')), "chatType" VARCHAR NOT NULL DEFAULT 'INTERNAL', "chatId" VARCHAR NOT NULL, "memoryType" VARCHAR, "sessionId" VARCHAR, "leadEmail" TEXT, "agentReasoning" TEXT, "action" TEXT, "artifacts" TEXT, "followUpPrompts" TEXT, "executionId" varchar, "reasonContent" TEXT);
CREATE TABLE "chat_message_feedback" ("id" varchar PRIMARY KEY NOT NULL, "chatflowid" varchar NOT NULL, "chatId" varchar NOT NULL, "messageId" varchar NOT NULL, "rating" varchar NOT NULL, "content" text, "createdDate" datetime NOT NULL DEFAULT (datetime('now')));
CREATE TABLE "credential" ("id" varchar PRIMARY KEY NOT NULL, "name" varchar NOT NULL, "credentialName" varchar NOT NULL, "encryptedData" text NOT NULL, "createdDate" datetime NOT NULL DEFAULT (datetime('now')), "updatedDate" datetime NOT NULL DEFAULT (datetime('now')), "workspaceId" TEXT);
CREATE TABLE "execution" ("id" varchar PRIMARY KEY NOT NULL, "executionData" text NOT NULL, "action" text, "state" varchar NOT NULL, "agentflowId" varchar NOT NULL, "sessionId" varchar NOT NULL, "isPublic" boolean, "createdDate" datetime NOT NULL DEFAULT (datetime('now')), "updatedDate" datetime NOT NULL DEFAULT (datetime('now')), "stoppedDate" datetime, "workspaceId" TEXT);

INSERT INTO chat_flow (id, name, flowData, deployed, isPublic, createdDate, updatedDate, type) VALUES
 ('f1000000-0000-4000-8000-000000000001', 'Support bot', '{"nodes":[],"edges":[]}', 1, 0, '2026-07-01 08:00:00.000', '2026-07-01 08:00:00.000', 'CHATFLOW'),
 ('f1000000-0000-4000-8000-000000000002', 'Research flow', '{"nodes":[],"edges":[]}', 0, 1, '2026-07-01 08:30:00.000', '2026-07-01 08:30:00.000', 'AGENTFLOW');

INSERT INTO credential (id, name, credentialName, encryptedData, createdDate, updatedDate) VALUES
 ('c1', 'openai', 'openAIApi', 'U2FsdGVkX1SECRETCIPHERTEXT', '2026-07-01 07:00:00.000', '2026-07-01 07:00:00.000');

INSERT INTO chat_message (id, role, chatflowid, content, createdDate, chatType, chatId, sessionId, usedTools, fileUploads) VALUES
 ('m1', 'userMessage', 'f1000000-0000-4000-8000-000000000001', 'what is 12*7 and the time?', '2026-07-02 09:00:00.000', 'INTERNAL', 'chat-a', 'chat-a', NULL, '[{"data":"data:text/plain;base64,aGVsbG8gd29ybGQ=","type":"file","name":"notes.txt","mime":"text/plain"}]');
INSERT INTO chat_message (id, role, chatflowid, content, createdDate, chatType, chatId, sessionId, usedTools, reasonContent) VALUES
 ('m2', 'apiMessage', 'f1000000-0000-4000-8000-000000000001', '12*7 is 84. It is 09:00 UTC.', '2026-07-02 09:00:04.250', 'INTERNAL', 'chat-a', 'chat-a', '[{"tool":"calculator","toolInput":{"input":"12*7"},"toolOutput":"84"},{"tool":"requests_get","toolInput":{"url":"https://time.example/now","headers":"Authorization: Bearer abcdefghijklmnop"},"toolOutput":"","error":"fetch failed: ECONNREFUSED"}]', 'Use the calculator, then fetch the time.');
INSERT INTO chat_message (id, role, chatflowid, content, createdDate, chatType, chatId, sessionId, agentReasoning, action) VALUES
 ('m3', 'apiMessage', 'f1000000-0000-4000-8000-000000000001', 'Shall I delete the old ticket?', '2026-07-02 09:01:00.000', 'INTERNAL', 'chat-a', 'chat-a', '[{"agentName":"Supervisor","messages":["Route to Worker"],"next":"Worker","instructions":"look up ticket 42"},{"agentName":"Worker","messages":["Ticket 42 is stale."],"usedTools":[{"tool":"web_scraper_tool","toolInput":{"url":"https://tickets.example/42"},"toolOutput":{"status":"stale"}}],"next":"FINISH"}]', '{"id":"act-1","elements":[{"type":"approve-button","label":"Proceed"},{"type":"reject-button","label":"Reject"}],"mapping":{"approve":"Proceed","reject":"Reject","toolCalls":[]}}');
INSERT INTO chat_message (id, role, chatflowid, content, createdDate, chatType, chatId, sessionId) VALUES
 ('m4', 'userMessage', 'f1000000-0000-4000-8000-000000000001', 'case 3: is the reply polite?', '2026-07-02 10:00:00.000', 'EVALUATION', 'eval-1', 'eval-1'),
 ('m5', 'apiMessage', 'f1000000-0000-4000-8000-000000000001', '', '2026-07-02 10:00:01.000', 'EVALUATION', 'eval-1', 'eval-1'),
 ('m6', 'userMessage', 'f1000000-0000-4000-8000-00000000dead', 'a prompt to a deleted flow', '2026-07-02 11:00:00.000', 'EXTERNAL', 'chat-b', 'chat-b'),
 ('m7', 'apiMessage', 'f1000000-0000-4000-8000-000000000001', 'broken tools', '2026-07-02 11:00:01.000', 'INTERNAL', 'chat-b', 'chat-b');
UPDATE chat_message SET usedTools = '[{"tool":' WHERE id = 'm7';
INSERT INTO chat_message (id, role, chatflowid, content, createdDate, chatType, chatId, sessionId, executionId) VALUES
 ('m8', 'userMessage', 'f1000000-0000-4000-8000-000000000002', 'summarise the report', '2026-07-03 12:00:00.000', 'INTERNAL', 'sess-x', 'sess-x', 'e1'),
 ('m9', 'apiMessage', 'f1000000-0000-4000-8000-000000000002', 'The report says sales rose.', '2026-07-03 12:00:09.000', 'INTERNAL', 'sess-x', 'sess-x', 'e1');

INSERT INTO chat_message_feedback (id, chatflowid, chatId, messageId, rating, content, createdDate) VALUES
 ('fb1', 'f1000000-0000-4000-8000-000000000001', 'chat-a', 'm2', 'THUMBS_DOWN', 'the time was wrong', '2026-07-02 09:05:00.000');

INSERT INTO execution (id, executionData, state, agentflowId, sessionId, createdDate, updatedDate, stoppedDate) VALUES
 ('e1', '[{"nodeId":"startAgentflow_0","nodeLabel":"Start","data":{"id":"startAgentflow_0","name":"startAgentflow","input":{"question":"summarise the report"},"output":{"question":"summarise the report"}},"previousNodeIds":[],"status":"FINISHED"},{"nodeId":"toolAgentflow_0","nodeLabel":"Read report","data":{"id":"toolAgentflow_0","name":"toolAgentflow","input":{"toolInputArgs":{"url":"https://intra.example/report.txt"},"selectedTool":"requestsGet"},"output":{"content":"Sales rose 4%."}},"previousNodeIds":["startAgentflow_0"],"status":"FINISHED"},{"nodeId":"humanInputAgentflow_0","nodeLabel":"Approve","data":{"id":"humanInputAgentflow_0","name":"humanInputAgentflow","input":{},"output":{"content":"proceed"}},"previousNodeIds":["toolAgentflow_0"],"status":"FINISHED"},{"nodeId":"agentAgentflow_0","nodeLabel":"Writer","data":{"id":"agentAgentflow_0","name":"agentAgentflow","input":{"messages":[]},"output":{"content":"The report says sales rose.","usedTools":[{"tool":"current_date_time","toolInput":{},"toolOutput":"2026-07-03"}]}},"previousNodeIds":["humanInputAgentflow_0"],"status":"FINISHED"}]', 'FINISHED', 'f1000000-0000-4000-8000-000000000002', 'sess-x', '2026-07-03 12:00:00.500', '2026-07-03 12:00:09.000', '2026-07-03 12:00:09.000'),
 ('e2', '{not json', 'ERROR', 'f1000000-0000-4000-8000-000000000002', 'sess-y', '2026-07-03 13:00:00.000', '2026-07-03 13:00:00.000', NULL);

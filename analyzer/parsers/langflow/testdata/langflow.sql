-- Langflow langflow.db: the message, transaction and flow tables as SQLModel
-- creates them in SQLite from langflow-ai/langflow
-- services/database/models/{message,transactions,flow}/model.py (message
-- at d6f801e); synthetic rows. content_blocks items are stored as JSON text
-- (MessageTable.from_message: model_dump_json) or as objects.
CREATE TABLE flow (name VARCHAR NOT NULL, description TEXT, data JSON, id CHAR(32) NOT NULL PRIMARY KEY, user_id CHAR(32), updated_at DATETIME);
CREATE TABLE message (timestamp DATETIME NOT NULL, sender VARCHAR NOT NULL, sender_name VARCHAR NOT NULL, session_id VARCHAR NOT NULL, text TEXT, id CHAR(32) NOT NULL PRIMARY KEY, flow_id CHAR(32), files JSON, error BOOLEAN NOT NULL, edit BOOLEAN NOT NULL, properties JSON, category TEXT, content_blocks JSON, FOREIGN KEY(flow_id) REFERENCES flow (id));
CREATE TABLE "transaction" (timestamp DATETIME NOT NULL, vertex_id VARCHAR NOT NULL, target_id VARCHAR, inputs JSON, outputs JSON, status VARCHAR NOT NULL, error VARCHAR, flow_id CHAR(32) NOT NULL, id CHAR(32) NOT NULL PRIMARY KEY);
CREATE TABLE apikey (id CHAR(32) PRIMARY KEY, api_key VARCHAR);

INSERT INTO flow (name, data, id) VALUES ('Simple Agent', '{"nodes":[{"data":{"node":{"template":{"api_key":{"value":"sk-proj-FLOWSECRET0123456789"}}}}}]}', 'a1b2c3d4e5f600000000000000000001');
INSERT INTO apikey VALUES ('k1', 'sk-LANGFLOWAPIKEY987654321');

INSERT INTO message (timestamp, sender, sender_name, session_id, text, id, flow_id, files, error, edit, properties, category, content_blocks) VALUES
 ('2026-07-07 10:00:00.000000', 'User', 'User', 'a1b2c3d4e5f600000000000000000001', 'what is 2+2 and what is on example.com?', 'm0000000000000000000000000000001', 'a1b2c3d4e5f600000000000000000001', '["a1b2c3d4e5f600000000000000000001/notes.txt"]', 0, 0, '{}', 'message', '[]'),
 ('2026-07-07 10:00:06.500000', 'Machine', 'AI', 'a1b2c3d4e5f600000000000000000001', '2+2 is 4. example.com is a placeholder page.', 'm0000000000000000000000000000002', 'a1b2c3d4e5f600000000000000000001', '[]', 0, 0, '{"state":"complete"}', 'message',
  '["{\"title\":\"Agent Steps\",\"contents\":[{\"type\":\"text\",\"text\":\"I will use the calculator first.\",\"header\":{\"title\":\"Input\"}},{\"type\":\"tool_use\",\"name\":\"evaluate_expression\",\"tool_input\":{\"expression\":\"2+2\"},\"output\":{\"result\":\"4\"},\"error\":null},{\"type\":\"tool_use\",\"name\":\"fetch_content\",\"tool_input\":{\"urls\":[\"https://example.com\"],\"headers\":\"api_key=sk-abcdefghijklmnop\"},\"output\":null,\"error\":\"timeout after 10s\"}]}"]'),
 ('2026-07-07 10:01:00.000000', 'User', 'User', 'a1b2c3d4e5f600000000000000000001', 'actually, what is 3+3?', 'm0000000000000000000000000000003', 'a1b2c3d4e5f600000000000000000001', '[]', 0, 1, '{}', 'message', '[]'),
 ('2026-07-07 10:01:02.000000', 'Machine', 'AI', 'a1b2c3d4e5f600000000000000000001', 'Error building Component Agent: rate limited', 'm0000000000000000000000000000004', 'a1b2c3d4e5f600000000000000000001', '[]', 1, 0, '{}', 'error',
  '[{"title":"Error","contents":[{"type":"error","component":"Agent","reason":"rate limited"}]}]'),
 ('2026-07-07 10:02:00.000000', 'Machine', 'AI', 'a1b2c3d4e5f600000000000000000001', '', 'm0000000000000000000000000000005', 'a1b2c3d4e5f600000000000000000001', '[]', 0, 0, '{}', 'message', '[]'),
 ('2026-07-07 10:03:00.000000', 'User', 'User', 'sess-2', 'a prompt of a deleted flow', 'm0000000000000000000000000000006', 'deadbeef000000000000000000000000', '[]', 0, 0, '{}', 'message', '[{"title":'),
 ('2026-07-07 10:04:00.000000', 'User', 'User', 'sess-3', 'a flowless playground prompt', 'm0000000000000000000000000000007', NULL, NULL, 0, 0, NULL, 'message', NULL);

INSERT INTO "transaction" (timestamp, vertex_id, target_id, inputs, outputs, status, error, flow_id, id) VALUES
 ('2026-07-07 10:00:01.000000', 'ChatInput-x1', 'Agent-y2', '{"input_value":"what is 2+2"}', '{"message":{"text":"what is 2+2 and what is on example.com?"}}', 'success', NULL, 'a1b2c3d4e5f600000000000000000001', 't0000000000000000000000000000001'),
 ('2026-07-07 10:00:06.000000', 'Agent-y2', 'ChatOutput-z3', '{"api_key":"sk-proj-INPUTSECRET0123456789","model_name":"gpt-4o"}', '{"response":{"text":"2+2 is 4."}}', 'success', NULL, 'a1b2c3d4e5f600000000000000000001', 't0000000000000000000000000000002'),
 ('2026-07-07 10:01:02.000000', 'Agent-y2', NULL, '{}', NULL, 'error', 'Error code: 429 - rate limited (Authorization: Bearer abcdefghijklmnopq)', 'a1b2c3d4e5f600000000000000000001', 't0000000000000000000000000000003');

CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY);
CREATE TABLE conversations (id VARCHAR(64) PRIMARY KEY, created_at INTEGER, updated_at INTEGER, title VARCHAR(256), kind VARCHAR(16), parent_conversation_id VARCHAR(64), sub_agent_name VARCHAR(128), workspace VARCHAR(2048));
CREATE TABLE conversation_items (id VARCHAR(64) PRIMARY KEY, conversation_id VARCHAR(64), response_id VARCHAR(64), created_at INTEGER, status VARCHAR(16), position INTEGER, type VARCHAR(32), data TEXT, search_text TEXT);
INSERT INTO conversations VALUES ('conv_1', 1780000000, 1780000100, 'old build', 'default', NULL, NULL, '/home/alice/old');
INSERT INTO conversation_items VALUES ('msg_1', 'conv_1', 'resp_1', 1780000001, 'completed', 0, 'message', '{"role": "user", "content": [{"type": "input_text", "text": "hello from an old build"}]}', 'hello');
INSERT INTO conversation_items VALUES ('fc_1', 'conv_1', 'resp_1', 1780000002, 'completed', 1, 'function_call', '{"model": "polly", "name": "sys_os_read", "arguments": "{\"path\": \"README.md\"}", "call_id": "call_1"}', '');

-- A Shelley store (~/.config/shelley/shelley.db) with the tables of
-- boldsoftware/shelley a38c350 db/schema 001-037 the parser reads, and the
-- models table that holds API keys (never read).
CREATE TABLE conversations (
    conversation_id TEXT PRIMARY KEY, slug TEXT, user_initiated BOOLEAN NOT NULL DEFAULT TRUE,
    created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    cwd TEXT, archived BOOLEAN NOT NULL DEFAULT FALSE, parent_conversation_id TEXT, model TEXT,
    conversation_options TEXT NOT NULL DEFAULT '{}', current_generation INTEGER NOT NULL DEFAULT 1,
    agent_working BOOLEAN NOT NULL DEFAULT FALSE, tags TEXT NOT NULL DEFAULT '[]',
    is_draft BOOLEAN NOT NULL DEFAULT FALSE, draft TEXT NOT NULL DEFAULT '', queued_messages TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE messages (
    message_id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, sequence_id INTEGER NOT NULL, type TEXT NOT NULL,
    llm_data TEXT, user_data TEXT, usage_data TEXT, created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    display_data TEXT, excluded_from_context BOOLEAN NOT NULL DEFAULT FALSE, generation INTEGER NOT NULL DEFAULT 1,
    llm_api_url TEXT, model_name TEXT, forked_from_message_id TEXT, user_email TEXT, other_usage_data TEXT
);
CREATE TABLE models (model_id TEXT PRIMARY KEY, display_name TEXT NOT NULL, provider_type TEXT NOT NULL,
    endpoint TEXT NOT NULL, api_key TEXT NOT NULL, model_name TEXT NOT NULL);
INSERT INTO models VALUES ('m1', 'Claude', 'anthropic', 'https://api.anthropic.com', 'sk-ant-SECRET-never-printed', 'claude-sonnet-4-5');
INSERT INTO conversations (conversation_id, slug, user_initiated, created_at, updated_at, cwd, archived, model, current_generation, tags, draft)
  VALUES ('cA', 'fix-login', 1, '2026-11-24 10:00:00', '2026-11-24 10:09:00', '/home/ex/app', 1, 'claude-sonnet-4-5', 2, '["work"]', 'and also the');
INSERT INTO conversations (conversation_id, slug, user_initiated, created_at, updated_at, cwd, parent_conversation_id, model)
  VALUES ('cB', 'fix-login-explore', 0, '2026-11-24 10:01:00', '2026-11-24 10:02:00', '/home/ex/app', 'cA', 'claude-haiku-4-5');
-- generation 1 (compacted): the first prompt and reply
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, user_data, created_at, generation, user_email)
  VALUES ('u1', 'cA', 1, 'user', '{"Role":0,"Content":[{"ID":"","Type":2,"Text":"why does login fail?"}]}', NULL, '2026-11-24 10:00:05', 1, 'ex@example.com');
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation, model_name, usage_data)
  VALUES ('a1', 'cA', 2, 'agent', '{"Role":1,"Content":[{"Type":3,"Thinking":"Look at auth first."},{"Type":2,"Text":"Let me look."},{"ID":"toolu_1","Type":5,"ToolName":"bash","ToolInput":{"command":"grep -rn login src/"}},{"ID":"toolu_2","Type":5,"ToolName":"subagent","ToolInput":{"slug":"explore","prompt":"map the auth code"}}]}', '2026-11-24 10:00:08', 1, 'claude-sonnet-4-5', '{"input_tokens":1200,"cache_creation_input_tokens":0,"cache_read_input_tokens":800,"output_tokens":64,"cost_usd":0.0123}');
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation)
  VALUES ('t1', 'cA', 3, 'tool', '{"Role":0,"Content":[{"Type":6,"ToolUseID":"toolu_1","ToolError":false,"ToolResult":[{"Type":2,"Text":"src/auth.go:12: login()"}]},{"Type":6,"ToolUseID":"toolu_2","ToolError":true,"ToolResult":[{"Type":2,"Text":"subagent timed out"}]}]}', '2026-11-24 10:00:30', 1);
-- generation 2: after compaction
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation, excluded_from_context)
  VALUES ('mc', 'cA', 4, 'modelchange', '{"Role":1,"Content":[{"Type":2,"Text":"Model changed to claude-opus-4-1"}]}', '2026-11-24 10:05:00', 2, 1);
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation, forked_from_message_id)
  VALUES ('u2', 'cA', 5, 'user', '{"Role":0,"Content":[{"Type":2,"Text":"now fix it"},{"Type":2,"MediaType":"image/png"}]}', '2026-11-24 10:06:00', 2, 'u0-other');
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation)
  VALUES ('e1', 'cA', 6, 'error', '{"Role":1,"Content":[{"Type":2,"Text":"rate limited"}]}', '2026-11-24 10:06:30', 2);
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation)
  VALUES ('g1', 'cA', 7, 'gitinfo', NULL, '2026-11-24 10:07:00', 2);
UPDATE messages SET user_data = '{"text":"branch fix-login at 1a2b3c4 (dirty)"}' WHERE message_id = 'g1';
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation)
  VALUES ('a2', 'cA', 8, 'agent', '{"Role":1,"Content":[{"Type":4},{"Type":99,"Text":"future"},{"Type":2,"Text":"Fixed."}]}', '2026-11-24 10:08:00', 2);
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at, generation)
  VALUES ('bad', 'cA', 9, 'agent', '{"Role":1,"Content":[', '2026-11-24 10:08:30', 2);
-- the subagent conversation: its user message is the parent's prompt
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at)
  VALUES ('su1', 'cB', 1, 'user', '{"Role":0,"Content":[{"Type":2,"Text":"map the auth code"}]}', '2026-11-24 10:01:00');
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at)
  VALUES ('sa1', 'cB', 2, 'agent', '{"Role":1,"Content":[{"Type":2,"Text":"auth lives in src/auth.go"}]}', '2026-11-24 10:01:30');
-- a message whose conversation row is gone
INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at)
  VALUES ('x1', 'cGone', 1, 'user', '{"Role":0,"Content":[{"Type":2,"Text":"a prompt of a deleted conversation"}]}', '2026-11-23 09:00:00');

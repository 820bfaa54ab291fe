-- AutoGen Studio autogen04203.db: the team, session, run and message tables
-- as SQLModel creates them in SQLite from microsoft/autogen
-- python/packages/autogen-studio/autogenstudio/datamodel/db.py @5de4319;
-- synthetic rows (created_at is host-local time, datetime.now()).
CREATE TABLE team (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, created_at DATETIME DEFAULT (CURRENT_TIMESTAMP), updated_at DATETIME, user_id VARCHAR, version VARCHAR, component JSON);
CREATE TABLE session (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, created_at DATETIME DEFAULT (CURRENT_TIMESTAMP), updated_at DATETIME, user_id VARCHAR, version VARCHAR, team_id INTEGER, name VARCHAR, FOREIGN KEY(team_id) REFERENCES team (id) ON DELETE CASCADE);
CREATE TABLE run (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, created_at DATETIME DEFAULT (CURRENT_TIMESTAMP), updated_at DATETIME, session_id INTEGER NOT NULL, status VARCHAR(8) NOT NULL, task JSON, team_result JSON, error_message VARCHAR, version VARCHAR, messages JSON, user_id VARCHAR, FOREIGN KEY(session_id) REFERENCES session (id) ON DELETE CASCADE);
CREATE TABLE message (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, created_at DATETIME DEFAULT (CURRENT_TIMESTAMP), updated_at DATETIME, user_id VARCHAR, version VARCHAR, config JSON, session_id INTEGER, run_id INTEGER, message_meta JSON, FOREIGN KEY(session_id) REFERENCES session (id), FOREIGN KEY(run_id) REFERENCES run (id) ON DELETE CASCADE);
CREATE TABLE settings (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, created_at DATETIME, updated_at DATETIME, user_id VARCHAR, version VARCHAR, config JSON);

INSERT INTO team (created_at, user_id, component) VALUES ('2026-07-09 11:00:00.000000', 'guestuser@gmail.com', '{"provider":"autogen_agentchat.teams.RoundRobinGroupChat","label":"Web Agent Team","config":{"participants":[{"config":{"model_client":{"config":{"model":"gpt-4o-mini","api_key":"sk-TEAMSECRET1234567890"}}}}]}}');
INSERT INTO settings (config) VALUES ('{"environment":[{"name":"OPENAI_API_KEY","value":"sk-SETTINGSSECRET12345"}]}');
INSERT INTO session (created_at, user_id, team_id, name) VALUES ('2026-07-09 11:05:00.000000', 'guestuser@gmail.com', 1, 'Weather check');
INSERT INTO run (created_at, session_id, status, task, team_result, error_message) VALUES
 ('2026-07-09 11:05:10.000000', 1, 'complete', '{"source":"user","content":"What is the weather in Paris?"}', '{"task_result":{"messages":[],"stop_reason":"Text ''TERMINATE'' mentioned"},"usage":"","duration":7.25}', NULL),
 ('2026-07-09 11:20:00.000000', 1, 'error', '{"source":"user","content":"again"}', NULL, 'Error code: 401 - Incorrect API key provided: sk-abcdefghijklmnop');
INSERT INTO message (created_at, user_id, config, session_id, run_id) VALUES
 ('2026-07-09 11:05:10.100000', 'guestuser@gmail.com', '{"source":"user","content":"What is the weather in Paris?","type":"TextMessage","models_usage":null}', 1, 1),
 ('2026-07-09 11:05:12.000000', 'guestuser@gmail.com', '{"source":"web_agent","content":"I should look it up.","type":"ThoughtEvent"}', 1, 1),
 ('2026-07-09 11:05:12.500000', 'guestuser@gmail.com', '{"source":"web_agent","content":[{"id":"call_a1","name":"fetch_webpage","arguments":"{\"url\": \"https://weather.example/paris\"}"}],"type":"ToolCallRequestEvent","models_usage":{"prompt_tokens":120,"completion_tokens":20}}', 1, 1),
 ('2026-07-09 11:05:14.000000', 'guestuser@gmail.com', '{"source":"web_agent","content":[{"content":"Sunny, 24C","name":"fetch_webpage","call_id":"call_a1","is_error":false}],"type":"ToolCallExecutionEvent"}', 1, 1),
 ('2026-07-09 11:05:16.000000', 'guestuser@gmail.com', '{"source":"web_agent","content":"It is sunny and 24C in Paris. TERMINATE","type":"TextMessage","models_usage":{"prompt_tokens":150,"completion_tokens":12}}', 1, 1),
 ('2026-07-09 11:05:16.500000', 'guestuser@gmail.com', '{"source":"web_agent","content":"","type":"TextMessage"}', 1, 1),
 ('2026-07-09 11:06:00.000000', 'guestuser@gmail.com', '{"source":"web_agent","content":"TERMINATE","type":"HandoffMessage","target":"user"}', 1, 1),
 ('2026-07-09 11:30:00.000000', 'guestuser@gmail.com', '{"source":"user","content":"a prompt of a deleted session","type":"TextMessage"}', 9, NULL),
 ('2026-07-09 11:31:00.000000', 'guestuser@gmail.com', '{"source":', 1, 2);

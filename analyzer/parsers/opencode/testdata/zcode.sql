-- A ZCode CLI store (~/.zcode/cli/db/db.sqlite) built from the layout
-- kenn-io/agentsview 5386007 internal/parser/zcode.go and zcode_test.go
-- read: session, message and part rows (OpenCode's, with times as RFC 3339
-- text or epoch ms) and model_usage.
CREATE TABLE session (
	id TEXT PRIMARY KEY NOT NULL,
	project_id TEXT,
	workspace_id TEXT,
	directory TEXT,
	title TEXT,
	time_created INTEGER,
	time_updated INTEGER
);
CREATE TABLE model_usage (
	session_id TEXT NOT NULL, turn_id TEXT, provider_id TEXT, model_id TEXT, status TEXT,
	input_tokens INTEGER, output_tokens INTEGER, reasoning_tokens INTEGER,
	cache_creation_input_tokens INTEGER, cache_read_input_tokens INTEGER, computed_total_tokens INTEGER,
	started_at INTEGER, completed_at INTEGER, duration_ms INTEGER, tool_call_count INTEGER
);
CREATE TABLE message (
	id TEXT PRIMARY KEY NOT NULL,
	session_id TEXT NOT NULL,
	time_created TEXT,
	data TEXT
);
CREATE TABLE part (
	id TEXT PRIMARY KEY NOT NULL,
	message_id TEXT NOT NULL,
	session_id TEXT NOT NULL,
	time_created TEXT,
	data TEXT
);
INSERT INTO session VALUES ('ses_z1', 'project-7', 'workspace-19', '/home/ex/acme', 'Inspect the login flow', '2026-11-24T10:00:01Z', '2026-11-24T10:05:00Z');
INSERT INTO session VALUES ('ses_z2', NULL, NULL, '/home/ex/acme', 'Integer times', 1795514400000, 1795514700000);
INSERT INTO model_usage VALUES ('ses_z1', '1', 'builtin:bigmodel-coding-plan', 'glm-4.6', 'done', 1000, 200, 40, 50, 25, 1315, '2026-11-24T10:00:02Z', '2026-11-24T10:00:03Z', 1000, 2);
INSERT INTO message VALUES ('msg_1', 'ses_z1', '2026-11-24T10:00:01Z', '{"role":"user"}');
INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_z1', NULL, '{"type":"text","text":"Inspect the login flow."}');
INSERT INTO message VALUES ('msg_2', 'ses_z1', '2026-11-24T10:00:02Z', '{"role":"assistant","model":{"modelID":"glm-4.6"}}');
INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_z1', '2026-11-24T10:00:02Z', '{"type":"reasoning","text":"Read the auth code first."}');
INSERT INTO part VALUES ('prt_3', 'msg_2', 'ses_z1', '2026-11-24T10:00:03Z', '{"type":"text","text":"I will read auth.go."}');
INSERT INTO part VALUES ('prt_4', 'msg_2', 'ses_z1', '2026-11-24T10:00:04Z', '{"type":"tool","tool":"read","callID":"call_1","state":{"status":"completed","input":{"filePath":"auth.go"},"output":"package auth"}}');
INSERT INTO part VALUES ('prt_5', 'msg_2', 'ses_z1', '2026-11-24T10:00:05Z', '{"type":"tool","tool":"bash","callID":"call_2","state":{"status":"error","input":{"command":"go test ./..."},"error":"exit status 1"}}');
INSERT INTO message VALUES ('msg_3', 'ses_z1', '2026-11-24T10:00:06Z', '{"role":"assistant","model":{"modelID":"glm-4.6"}}');
INSERT INTO part VALUES ('prt_6', 'msg_3', 'ses_z1', NULL, '{"type":"thinking","thinking":"An older build wrote thinking parts."}');
INSERT INTO part VALUES ('prt_7', 'msg_3', 'ses_z1', NULL, '{"type":"tool_use","id":"call_3","name":"Read","input":{"file_path":"login.go"}}');
INSERT INTO message VALUES ('msg_4', 'ses_z1', '2026-11-24T10:00:07Z', '{"role":"user"}');
INSERT INTO part VALUES ('prt_8', 'msg_4', 'ses_z1', NULL, '{"type":"tool_result","tool_use_id":"call_3","content":"package login"}');
INSERT INTO message VALUES ('msg_5', 'ses_z2', 1795514401000, '{"role":"user"}');
INSERT INTO part VALUES ('prt_9', 'msg_5', 'ses_z2', NULL, '{"type":"text","text":"hello"}');

-- OpenCode 2.0 store: session_v2 with session_message rows
-- (SessionMessage: type column, data without type and id), and one 1.x
-- session that session_message does not hold.
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE session_v2 (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, directory TEXT, title TEXT, version TEXT, permission TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_archived INTEGER);
CREATE TABLE session_message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, type TEXT NOT NULL, seq INTEGER NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);

INSERT INTO session VALUES ('ses_old', 'prj1', NULL, 'old', '/home/examiner/src/app', 'Old session', '1.2.0', 1760000000000, 1760000000000);
INSERT INTO message VALUES ('msg_o1', 'ses_old', 1760000000100, 1760000000100, '{"role":"user","time":{"created":1760000000100}}');
INSERT INTO part VALUES ('prt_o1', 'msg_o1', 'ses_old', 1760000000100, 1760000000100, '{"type":"text","text":"hello from 1.x"}');

INSERT INTO session_v2 VALUES ('ses_new', 'prj1', NULL, '/home/examiner/src/app', 'Rename the module', '2.0.32', '[{"permission":"webfetch","pattern":"*","action":"deny"}]', 1770000000000, 1770000100000, NULL);
INSERT INTO session_message VALUES ('evt_01', 'ses_new', 'user', 1, 1770000000100, 1770000000100, '{"time":{"created":1770000000100},"text":"rename module foo to bar","files":[{"filename":"foo.ts","mime":"text/plain","url":"file:///home/examiner/src/app/foo.ts"}]}');
INSERT INTO session_message VALUES ('evt_02', 'ses_new', 'assistant', 2, 1770000001000, 1770000009000, '{"time":{"created":1770000001000,"completed":1770000009000},"agent":"build","model":{"id":"claude-opus-4-1","providerID":"anthropic"},"content":[{"type":"reasoning","id":"r1","text":"Use a shell mv."},{"type":"tool","id":"toolu_21","name":"bash","state":{"status":"completed","input":{"command":"git mv foo.ts bar.ts"},"content":[{"type":"text","text":"renamed"}],"structured":{}},"time":{"created":1770000002000,"ran":1770000002100,"completed":1770000003000}},{"type":"tool","id":"toolu_22","name":"edit","state":{"status":"error","input":{"filePath":"/home/examiner/src/app/bar.ts"},"content":[],"structured":{},"error":{"type":"unknown","message":"File has been modified since it was last read"}},"time":{"created":1770000004000,"completed":1770000004500}},{"type":"text","text":"Renamed foo.ts to bar.ts."}]}');
INSERT INTO session_message VALUES ('evt_03', 'ses_new', 'model-switched', 3, 1770000050000, 1770000050000, '{"time":{"created":1770000050000},"model":{"id":"gpt-5","providerID":"openai"}}');
INSERT INTO session_message VALUES ('evt_04', 'ses_new', 'shell', 4, 1770000060000, 1770000061000, '{"time":{"created":1770000060000,"completed":1770000061000},"callID":"sh_1","command":"ls","output":"bar.ts\n"}');
INSERT INTO session_message VALUES ('evt_05', 'ses_new', 'synthetic', 5, 1770000062000, 1770000062000, '{"time":{"created":1770000062000},"sessionID":"ses_new","text":"The user ran a shell command."}');
INSERT INTO session_message VALUES ('evt_06', 'ses_new', 'compaction', 6, 1770000070000, 1770000070000, '{"time":{"created":1770000070000},"reason":"auto","summary":"Renamed foo to bar."}');
INSERT INTO session_message VALUES ('evt_07', 'ses_new', 'agent-switched', 7, 1770000080000, 1770000080000, '{"time":{"created":1770000080000},"agent":"plan"}');
INSERT INTO session_message VALUES ('evt_08', 'ses_new', 'mystery', 8, 1770000090000, 1770000090000, '{"time":{"created":1770000090000}}');

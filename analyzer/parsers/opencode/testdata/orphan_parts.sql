-- opencode #13654 / #13818: a 1.x store where the message row of two parts
-- is gone (a migration that copied parts but not their message, or a
-- deletion that left the parts), a message whose parts are all gone, and a
-- session known only from parts (its session and message rows gone).
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);

INSERT INTO session VALUES ('ses_o1', 'prj1', NULL, 'lone-elk', '/home/examiner/src/app', 'Clean the build', '1.2.27', NULL, 1767261600000, 1767261900000);

INSERT INTO message VALUES ('msg_u1', 'ses_o1', 1767261600100, 1767261600100, '{"role":"user","time":{"created":1767261600100}}');
INSERT INTO part VALUES ('prt_u1', 'msg_u1', 'ses_o1', 1767261600100, 1767261600100, '{"type":"text","text":"clean the build directory"}');
-- msg_gone's row is gone; its parts remain
INSERT INTO part VALUES ('prt_g1', 'msg_gone', 'ses_o1', 1767261601000, 1767261601000, '{"type":"text","text":"I will remove build/.","time":{"start":1767261601000,"end":1767261601100}}');
INSERT INTO part VALUES ('prt_g2', 'msg_gone', 'ses_o1', 1767261601200, 1767261601200, '{"type":"tool","callID":"toolu_rm","tool":"bash","state":{"status":"completed","input":{"command":"rm -rf build/"},"output":"","title":"rm -rf build/","time":{"start":1767261601200,"end":1767261601500}}}');
INSERT INTO part VALUES ('prt_g3', 'msg_gone', 'ses_o1', 1767261601600, 1767261601600, '{"type":"step-finish","reason":"tool-calls"}');
-- a user message whose parts are all gone (#13818)
INSERT INTO message VALUES ('msg_u2', 'ses_o1', 1767261700000, 1767261700000, '{"role":"user","time":{"created":1767261700000}}');
-- session ses_x and its messages gone: one part left
INSERT INTO part VALUES ('prt_x1', 'msg_x', 'ses_x', 1767261800000, 1767261800000, '{"type":"tool","callID":"toolu_x","tool":"read","state":{"status":"completed","input":{"filePath":"/etc/hosts"},"output":"127.0.0.1 localhost","title":"hosts","time":{"start":1767261800000,"end":1767261800100}}}');

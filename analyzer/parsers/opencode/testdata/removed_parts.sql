-- The 1.x sync log (event) keeps each part's updates; a
-- message.part.removed event whose part row is gone (a revert, or Kilo's
-- transient progress part) still has the part's last update.
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE event (id TEXT PRIMARY KEY, aggregate_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL);
INSERT INTO session VALUES ('ses_r', 'prj1', NULL, 'sly-owl', '/home/examiner/src/app', 'Revert', '1.2.27', 1767261600000, 1767261900000);
INSERT INTO message VALUES ('msg_a', 'ses_r', 1767261601000, 1767261601000, '{"role":"assistant","time":{"created":1767261601000},"modelID":"m","providerID":"p"}');
INSERT INTO part VALUES ('prt_keep', 'msg_a', 'ses_r', 1767261601000, 1767261601000, '{"type":"text","text":"kept reply"}');
INSERT INTO event VALUES ('evt_1', 'ses_r', 1, 'message.part.updated.1', '{"sessionID":"ses_r","part":{"id":"prt_gone","sessionID":"ses_r","messageID":"msg_a","type":"tool","callID":"call_1","tool":"bash","state":{"status":"running","input":{"command":"rm -rf dist"}}},"time":1767261602000}');
INSERT INTO event VALUES ('evt_2', 'ses_r', 2, 'message.part.updated.1', '{"sessionID":"ses_r","part":{"id":"prt_gone","sessionID":"ses_r","messageID":"msg_a","type":"tool","callID":"call_1","tool":"bash","state":{"status":"completed","input":{"command":"rm -rf dist"},"output":"","time":{"start":1767261602000,"end":1767261603000}}},"time":1767261603000}');
INSERT INTO event VALUES ('evt_3', 'ses_r', 3, 'message.part.removed.1', '{"sessionID":"ses_r","messageID":"msg_a","partID":"prt_gone"}');
INSERT INTO event VALUES ('evt_4', 'ses_r', 4, 'message.part.removed.1', '{"sessionID":"ses_r","messageID":"msg_a","partID":"prt_never_seen"}');

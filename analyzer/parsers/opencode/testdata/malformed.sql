-- Bad JSON in a message, a part and a session_message row; the parse goes on.
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
INSERT INTO session VALUES ('ses_m', 'p', '/w', '', '1.2.0', 1767261600000, 1767261600000);
INSERT INTO message VALUES ('msg_1', 'ses_m', 1767261600100, 1767261600100, '{"role":"user"');
INSERT INTO message VALUES ('msg_2', 'ses_m', 1767261600200, 1767261600200, '{"role":"user","time":{"created":1767261600200}}');
INSERT INTO part VALUES ('prt_1', 'msg_2', 'ses_m', 1767261600200, 1767261600200, 'not json');
INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_m', 1767261600200, 1767261600200, '{"type":"text","text":"still here"}');

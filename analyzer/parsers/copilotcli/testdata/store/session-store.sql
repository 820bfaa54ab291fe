CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT);
INSERT INTO sessions VALUES ('6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f','/home/examiner/demo','examiner/demo','main','List files and keep tmp.txt','2026-10-15T09:00:00.015Z','2026-10-15T09:02:00.000Z');
CREATE TABLE turns (id INTEGER PRIMARY KEY, session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);
INSERT INTO turns VALUES (1,'6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',0,'list the files and delete tmp.txt','I listed the files; you declined deleting tmp.txt, so it is still there.','2026-10-15T09:00:10.100Z');
CREATE TABLE session_files (id INTEGER PRIMARY KEY, session_id TEXT, file_path TEXT, tool_name TEXT, turn_index INTEGER, first_seen_at TEXT);
INSERT INTO session_files VALUES (1,'6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f','/home/examiner/demo/notes.md','view',0,'2026-10-15T09:00:03.000Z');
CREATE TABLE session_refs (id INTEGER PRIMARY KEY, session_id TEXT, ref_type TEXT, ref_value TEXT, created_at TEXT);
INSERT INTO session_refs VALUES (1,'6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f','pr','examiner/demo#7','2026-10-15T09:01:00.000Z');
CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, session_id TEXT, checkpoint_number INTEGER, title TEXT, created_at INTEGER);
INSERT INTO checkpoints VALUES (1,'6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',1,'After listing',1792054850000);
-- forge_trajectory_events as the real 1.0.102 store creates it (no rows here)
CREATE TABLE forge_trajectory_events (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), tool_call_id TEXT, turn_index INTEGER, event_type TEXT NOT NULL, command TEXT, output TEXT, exit_code INTEGER, event_key TEXT, event_value TEXT, created_at TEXT DEFAULT (datetime('now')));

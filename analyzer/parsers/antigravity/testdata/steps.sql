CREATE TABLE steps (idx INTEGER PRIMARY KEY, step_type INTEGER, status INTEGER, metadata BLOB, task_details BLOB, step_payload BLOB, step_format INTEGER, permissions BLOB);
CREATE TABLE trajectory_metadata (key TEXT PRIMARY KEY, value BLOB);

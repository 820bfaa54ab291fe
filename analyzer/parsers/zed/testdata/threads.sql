-- threads/threads.db as crates/agent/src/db.rs creates it (with every
-- ALTER TABLE applied). zstd rows are inserted by the test.
CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    summary TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    data_type TEXT NOT NULL,
    data BLOB NOT NULL,
    parent_id TEXT,
    folder_paths TEXT,
    folder_paths_order TEXT,
    created_at TEXT
);
-- a legacy (agent 1) thread stored as plain JSON
INSERT INTO threads (rowid, id, summary, updated_at, data_type, data, folder_paths, created_at) VALUES (1,
 'legacy-thread-0001', 'Old assistant thread', '2025-06-01T08:00:00+00:00', 'json',
 CAST('{"version":"0.2.0","summary":"Old assistant thread","updated_at":"2025-06-01T08:00:00Z","messages":[{"id":0,"role":"user","segments":[{"type":"text","text":"what does main.rs do?"}],"tool_uses":[],"tool_results":[],"context":"<files>main.rs</files>"},{"id":1,"role":"assistant","segments":[{"type":"thinking","text":"Look at it.","signature":null},{"type":"text","text":"Reading it."}],"tool_uses":[{"id":"tu_legacy","name":"read_file","input":{"path":"src/main.rs"}}],"tool_results":[{"tool_use_id":"tu_legacy","is_error":false,"content":"fn main() {}","output":null}],"context":""}],"model":{"provider":"openai","model":"gpt-4o"}}' AS BLOB),
 '/home/examiner/legacy', '2025-06-01T08:00:00+00:00');
-- a zstd row whose data is not zstd
INSERT INTO threads (rowid, id, summary, updated_at, data_type, data) VALUES (2, 'broken-zstd', 'Broken', '2026-01-01T00:00:00Z', 'zstd', X'00010203');
-- a json row whose data is not JSON
INSERT INTO threads (rowid, id, summary, updated_at, data_type, data) VALUES (3, 'broken-json', 'Broken', '2026-01-01T00:00:00Z', 'json', CAST('{"messages": [' AS BLOB));

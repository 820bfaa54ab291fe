-- the first threads table (no parent_id, folder_paths, created_at)
CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL);
INSERT INTO threads VALUES ('v1-thread', 'Hello', '2025-09-01T10:00:00Z', 'json',
 CAST('{"version":"0.3.0","title":"Hello","messages":[{"User":{"id":"u1","content":[{"Text":"hi"}]}},{"Agent":{"content":[{"Text":"Hello!"}],"tool_results":{}}},{"Bogus":{}}],"updated_at":"2025-09-01T10:00:00Z","model":null}' AS BLOB));

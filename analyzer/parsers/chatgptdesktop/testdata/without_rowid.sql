-- Synthetic: a WITHOUT ROWID table; rows are numbered in order instead.
CREATE TABLE local_thread_catalog (host_id TEXT, thread_id TEXT PRIMARY KEY, display_title TEXT, source_updated_at INTEGER, source_kind TEXT) WITHOUT ROWID;
INSERT INTO local_thread_catalog VALUES ('h', 'b-conv', 'Second', 1760000100, 'chatgpt'), ('h', 'a-conv', 'First', 1760000000, 'chatgpt');

-- Synthetic: the table exists and is empty.
CREATE TABLE local_thread_catalog (host_id TEXT, thread_id TEXT, source_kind TEXT, source_updated_at INTEGER);

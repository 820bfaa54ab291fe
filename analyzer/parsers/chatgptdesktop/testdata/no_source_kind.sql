-- Synthetic: an older table shape without source_kind (one public tool's
-- test creates it with thread_id alone): nothing can be attributed.
CREATE TABLE local_thread_catalog (thread_id TEXT NOT NULL);
INSERT INTO local_thread_catalog VALUES ('visible'), ('orphan');

-- Synthetic: no conversation_origin column; the origin is read from the
-- source_detail JSON. Times as RFC 3339 text; the third row has no
-- source_updated_at (falls back to source_recency_at) and the fourth no
-- time at all (undated). Kind compared case-insensitively.
CREATE TABLE local_thread_catalog (
  host_id TEXT, thread_id TEXT, display_title TEXT,
  source_created_at TEXT, source_updated_at TEXT, source_recency_at TEXT,
  source_kind TEXT, source_detail TEXT
);
INSERT INTO local_thread_catalog VALUES
 ('h1', 'conv-a', 'Recipe ideas', '2026-10-15T08:00:00Z', '2026-10-15T09:30:00.250Z', NULL, 'chatgpt', '{"conversation_origin":"ios"}'),
 ('h1', 'conv-b', NULL, NULL, NULL, '1760600000', 'ChatGPT', 'not json'),
 ('h1', 'conv-c', 'Untimed', NULL, 'garbage', NULL, 'chatgpt', NULL);

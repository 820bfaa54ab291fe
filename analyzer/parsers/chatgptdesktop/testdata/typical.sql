-- Synthetic: the column set public third-party tools use, two ChatGPT
-- conversations (epoch seconds, then milliseconds) and one Codex-mode
-- (vscode) thread that must be skipped.
CREATE TABLE local_thread_catalog (
  host_id TEXT NOT NULL,
  thread_id TEXT NOT NULL,
  display_title TEXT,
  source_created_at INTEGER,
  source_updated_at INTEGER,
  source_recency_at REAL,
  cwd TEXT,
  source_kind TEXT,
  source_detail TEXT,
  conversation_origin TEXT,
  model_provider TEXT,
  git_branch TEXT,
  observation_sequence INTEGER,
  missing_candidate INTEGER
);
INSERT INTO local_thread_catalog VALUES
 ('acct-host-7f3a', '68f0c1d2-1111-8000-9abc-0123456789ab', 'Trip planning for Lisbon', 1760520000, 1760523600, 1760523600, '', 'chatgpt', '', 'web', 'openai', '', 1, 0),
 ('local', '019a0000-2222-7000-8000-000000000002', 'Fix flaky test', 1760530000, 1760531000, 1760531000, '/Users/alice/src/app', 'vscode', '', NULL, 'openai', 'main', 2, 0),
 ('acct-host-7f3a', '68f0c1d2-3333-8000-9abc-0123456789ab', 'Image: a lighthouse at dusk', 1760540000000, 1760540100000, NULL, NULL, 'chatgpt', '', 'desktop', 'openai', NULL, 3, 0);

-- the oldest threads table (0001_threads.sql only): no first_user_message.
CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    rollout_path TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    source TEXT NOT NULL,
    model_provider TEXT NOT NULL,
    cwd TEXT NOT NULL,
    title TEXT NOT NULL,
    sandbox_policy TEXT NOT NULL,
    approval_mode TEXT NOT NULL,
    tokens_used INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    archived_at INTEGER,
    git_sha TEXT,
    git_branch TEXT,
    git_origin_url TEXT
);
INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode)
VALUES ('0198aaaa-0000-7000-8000-000000000001', '/home/examiner/.codex/sessions/2025/12/01/rollout-2025-12-01T09-00-00-0198aaaa-0000-7000-8000-000000000001.jsonl',
        1764579600, 1764579700, 'cli', 'openai', '/home/examiner/demo', 'refactor the parser', '{"type":"read-only"}', 'untrusted');

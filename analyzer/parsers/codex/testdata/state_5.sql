-- threads as created by codex-rs/state/migrations/0001_threads.sql
-- (openai/codex @864b3ff5194d), then columns later migrations added.
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
ALTER TABLE threads ADD COLUMN cli_version TEXT NOT NULL DEFAULT '';
ALTER TABLE threads ADD COLUMN first_user_message TEXT NOT NULL DEFAULT '';
ALTER TABLE threads ADD COLUMN model TEXT;
ALTER TABLE threads ADD COLUMN created_at_ms INTEGER;
ALTER TABLE threads ADD COLUMN originator TEXT;
CREATE TABLE thread_spawn_edges (
    parent_thread_id TEXT NOT NULL,
    child_thread_id TEXT NOT NULL PRIMARY KEY,
    status TEXT NOT NULL
);
INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode, tokens_used, archived, archived_at, cli_version, first_user_message, model, created_at_ms, originator)
VALUES ('0199bbbb-0000-7000-8000-000000000002', '/home/examiner/.codex/sessions/2026/03/02/rollout-2026-03-02T10-00-00-0199bbbb-0000-7000-8000-000000000002.jsonl',
        1772442000, 1772442120, 'cli', 'openai', '/home/examiner/demo', 'list the files', '{"type":"workspace-write","network_access":false}', 'on-request', 1200, 0, NULL,
        '0.120.0', 'list the files', 'gpt-5-codex', 1772442000100, 'codex_cli_rs');
INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode, tokens_used, archived, archived_at, cli_version, first_user_message, model, created_at_ms, originator)
VALUES ('0199adad-0000-7000-8000-00000000000b', '/home/examiner/.codex/archived_sessions/rollout-2026-03-09T04-00-00-0199adad-0000-7000-8000-00000000000b.jsonl',
        1772938800, 1772938900, '{"subagent":{"thread_spawn":{"parent_thread_id":"0199adad-0000-7000-8000-0000000000aa","depth":1}}}', 'openai', '/home/examiner/demo', 'explore the repo', '"danger-full-access"', 'never', 10, 1, 1773000000,
        '0.160.0', 'explore the repo', NULL, NULL, NULL);
INSERT INTO thread_spawn_edges VALUES ('0199adad-0000-7000-8000-0000000000aa', '0199adad-0000-7000-8000-00000000000b', 'closed');

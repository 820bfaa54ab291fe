-- threads as the Codex state migrations create them (the fork keeps
-- codex-rs/state unchanged: openinterpreter/openinterpreter @5b07159).
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
    git_origin_url TEXT,
    cli_version TEXT NOT NULL DEFAULT '',
    first_user_message TEXT NOT NULL DEFAULT '',
    model TEXT,
    created_at_ms INTEGER,
    originator TEXT
);
INSERT INTO threads VALUES ('0198aaaa-0000-7000-8000-0000000000a1',
 '/home/examiner/.openinterpreter/sessions/2026/08/10/rollout-2026-08-10T09-00-00-0198aaaa-0000-7000-8000-0000000000a1.jsonl',
 1786352400, 1786352405, 'cli', 'openai', '/home/examiner/site', 'delete the build folder',
 '{"type":"workspace-write"}', 'on-request', 1200, 0, NULL, NULL, NULL, NULL,
 '0.0.40', 'delete the build folder', 'gpt-5.2', 1786352400000, 'codex_cli_rs');

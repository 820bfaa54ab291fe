-- db/0-stable/db.sqlite: the agent-related tables (other workspace tables omitted)
CREATE TABLE sidebar_threads(
    session_id TEXT PRIMARY KEY, agent_id TEXT, title TEXT NOT NULL, updated_at TEXT NOT NULL,
    created_at TEXT, folder_paths TEXT, folder_paths_order TEXT, archived INTEGER DEFAULT 0,
    main_worktree_paths TEXT, main_worktree_paths_order TEXT, title_override TEXT
) STRICT;
INSERT INTO sidebar_threads VALUES ('9d1e6a2b-0000-4c1a-8f00-000000000001', NULL, 'Fix build script', '2026-02-10T14:30:00.123456+00:00', '2026-02-10T14:00:00+00:00', '/home/examiner/zproj', '0', 0, NULL, NULL, NULL);
INSERT INTO sidebar_threads VALUES ('acp-claude-77', 'claude-code', 'Refactor parser', '2026-02-11T09:00:00+00:00', '2026-02-11T09:00:00+00:00', '/home/examiner/other', '0', 1, NULL, NULL, 'My refactor');
CREATE TABLE trusted_worktrees (trust_id INTEGER PRIMARY KEY AUTOINCREMENT, absolute_path TEXT, user_name TEXT, host_name TEXT) STRICT;
INSERT INTO trusted_worktrees VALUES (1, '/home/examiner/zproj', NULL, NULL);
INSERT INTO trusted_worktrees VALUES (2, '/srv/app', 'deploy', 'build-box');
CREATE TABLE scoped_kv_store (namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (namespace, key)) STRICT;
INSERT INTO scoped_kv_store VALUES ('agent_draft_prompts', '9d1e6a2b-0000-4c1a-8f00-000000000001', '[{"type":"text","text":"rm -rf / was a joke, "},{"type":"resource_link","name":"notes.md","uri":"file:///home/examiner/notes.md"}]');
INSERT INTO scoped_kv_store VALUES ('agent_draft_prompts', 'empty-draft', '[]');
INSERT INTO scoped_kv_store VALUES ('created_git_worktrees', '/home/examiner/zproj-wt-1', '{"main_repo":"/home/examiner/zproj","branch":"zed/agent-1"}');
INSERT INTO scoped_kv_store VALUES ('theme', 'last', '"dark"');
CREATE TABLE archived_git_worktrees (id INTEGER PRIMARY KEY, worktree_path TEXT NOT NULL, main_repo_path TEXT NOT NULL, branch_name TEXT, commit_hash TEXT, created_at TEXT) STRICT;
INSERT INTO archived_git_worktrees VALUES (1, '/home/examiner/zproj-wt-0', '/home/examiner/zproj', 'zed/agent-0', 'abc1234', '2026-02-09T12:00:00+00:00');
CREATE TABLE sidebar_terminal_threads (terminal_id TEXT PRIMARY KEY, title TEXT NOT NULL, custom_title TEXT, created_at TEXT NOT NULL, working_directory TEXT, folder_paths TEXT, folder_paths_order TEXT) STRICT;
INSERT INTO sidebar_terminal_threads VALUES ('term-1', 'bash', 'deploy shell', '2026-02-10T15:00:00+00:00', '/home/examiner/zproj', NULL, NULL);

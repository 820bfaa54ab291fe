-- db.sqlite with the ThreadMetadataDb shapes of zed-industries/zed a846890
-- (thread_metadata_store.rs): sidebar_threads keyed by a 16-byte thread_id,
-- archived_git_worktrees with the three commit hashes, and the
-- thread_archived_worktrees join (one link to a known thread, one to a
-- thread the sidebar lost, one to a worktree row that is gone).
CREATE TABLE sidebar_threads(thread_id BLOB PRIMARY KEY, session_id TEXT, agent_id TEXT, title TEXT NOT NULL, updated_at TEXT NOT NULL, created_at TEXT,
  folder_paths TEXT, folder_paths_order TEXT, archived INTEGER DEFAULT 0, main_worktree_paths TEXT, main_worktree_paths_order TEXT, remote_connection TEXT) STRICT;
INSERT INTO sidebar_threads VALUES (X'00112233445566778899aabbccddeeff', '9d1e6a2b-0000-4c1a-8f00-000000000001', NULL, 'Fix build script', '2026-02-10T14:30:00+00:00', '2026-02-10T14:00:00+00:00', '/home/examiner/zproj', '0', 1, NULL, NULL, NULL);
CREATE TABLE archived_git_worktrees(id INTEGER PRIMARY KEY, worktree_path TEXT NOT NULL, main_repo_path TEXT NOT NULL, branch_name TEXT,
  staged_commit_hash TEXT, unstaged_commit_hash TEXT, original_commit_hash TEXT) STRICT;
INSERT INTO archived_git_worktrees VALUES (7, '/home/examiner/zproj-wt-2', '/home/examiner/zproj', 'zed/agent-2', '2222222', '3333333', '1111111');
INSERT INTO archived_git_worktrees VALUES (8, '/home/examiner/zproj-wt-3', '/home/examiner/zproj', NULL, NULL, NULL, NULL);
CREATE TABLE thread_archived_worktrees(thread_id BLOB NOT NULL, archived_worktree_id INTEGER NOT NULL REFERENCES archived_git_worktrees(id),
  PRIMARY KEY (thread_id, archived_worktree_id)) STRICT;
INSERT INTO thread_archived_worktrees VALUES (X'00112233445566778899aabbccddeeff', 7);
INSERT INTO thread_archived_worktrees VALUES (X'ffeeddccbbaa99887766554433221100', 7);
INSERT INTO thread_archived_worktrees VALUES (X'00112233445566778899aabbccddeeff', 9);

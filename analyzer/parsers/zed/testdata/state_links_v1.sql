-- the first thread_archived_worktrees form, keyed by session_id
CREATE TABLE archived_git_worktrees(id INTEGER PRIMARY KEY, worktree_path TEXT NOT NULL, main_repo_path TEXT NOT NULL, branch_name TEXT,
  staged_commit_hash TEXT, unstaged_commit_hash TEXT, original_commit_hash TEXT) STRICT;
INSERT INTO archived_git_worktrees VALUES (1, '/home/examiner/zproj-wt-0', '/home/examiner/zproj', NULL, NULL, NULL, NULL);
CREATE TABLE thread_archived_worktrees(session_id TEXT NOT NULL, archived_worktree_id INTEGER NOT NULL REFERENCES archived_git_worktrees(id),
  PRIMARY KEY (session_id, archived_worktree_id)) STRICT;
INSERT INTO thread_archived_worktrees VALUES ('9d1e6a2b-0000-4c1a-8f00-000000000001', 1);

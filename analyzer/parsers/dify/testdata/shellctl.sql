-- shellctl.db in the Dify agent sandbox's home volume
-- (.local/share/shellctl/shellctl.db): the jobs table as the sandbox's
-- shellctl creates it (runner_exit tests and config.go: state dir
-- $XDG_DATA_HOME/shellctl, jobs/ beside the database). Synthetic rows.
CREATE TABLE jobs (job_id TEXT PRIMARY KEY, script_path TEXT NOT NULL, output_path TEXT NOT NULL, cwd TEXT NOT NULL, terminal_cols INTEGER NOT NULL DEFAULT 200, terminal_rows INTEGER NOT NULL DEFAULT 50, status TEXT NOT NULL DEFAULT 'created', session_name TEXT NOT NULL, pane_target TEXT NOT NULL, exit_code INTEGER, reason TEXT, message TEXT, created_at TEXT NOT NULL, started_at TEXT, ended_at TEXT, updated_at TEXT NOT NULL);
INSERT INTO jobs VALUES
 ('j1', '/home/dify/.local/share/shellctl/jobs/j1/script.sh', '/home/dify/.local/share/shellctl/jobs/j1/output.log', '/workspace', 200, 50, 'exited', 'agent-1', 'agent-1:0.0', 0, NULL, NULL, '2026-07-15T08:00:00Z', '2026-07-15T08:00:00.500Z', '2026-07-15T08:00:02Z', '2026-07-15T08:00:02Z'),
 ('j2', '/home/dify/.local/share/shellctl/jobs/j2/script.sh', '/home/dify/.local/share/shellctl/jobs/j2/output.log', '/workspace', 200, 50, 'terminated', 'agent-1', 'agent-1:0.1', 137, 'timeout', 'killed after 30s', '2026-07-15T08:01:00Z', '2026-07-15T08:01:00Z', '2026-07-15T08:01:30Z', '2026-07-15T08:01:30Z'),
 ('j3', '/home/dify/.local/share/shellctl/jobs/j3/script.sh', '/home/dify/.local/share/shellctl/jobs/j3/output.log', '/tmp', 200, 50, 'running', 'agent-2', 'agent-2:0.0', NULL, NULL, NULL, '2026-07-15T08:02:00Z', NULL, NULL, '2026-07-15T08:02:00Z');

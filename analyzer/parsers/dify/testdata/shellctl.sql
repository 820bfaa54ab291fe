-- shellctl.db in the Dify agent sandbox's home volume
-- (.local/share/shellctl/shellctl.db): the jobs table as shellctl creates
-- it (langgenius/dify dify-agent-runtime/internal/server/db.go InitSchema
-- at 4a3ce25), rows shaped as it writes them (runtime.go at 4764060: job ids
-- of 16 hex digits, tmux session shellctl-<id> and pane <session>:0.0, UTC
-- times to the second; service.go at 0ed63d2: jobs/<id>/script and
-- jobs/<id>/output.log, stored relative to the state directory; the last
-- row keeps an absolute path, as an older shellctl may). Synthetic rows.
CREATE TABLE jobs (job_id TEXT PRIMARY KEY, script_path TEXT NOT NULL, output_path TEXT NOT NULL, cwd TEXT NOT NULL, terminal_cols INTEGER NOT NULL DEFAULT 200, terminal_rows INTEGER NOT NULL DEFAULT 50, status TEXT NOT NULL DEFAULT 'created', session_name TEXT NOT NULL, pane_target TEXT NOT NULL, exit_code INTEGER, reason TEXT, message TEXT, created_at TEXT NOT NULL, started_at TEXT, ended_at TEXT, updated_at TEXT NOT NULL);
INSERT INTO jobs VALUES
 ('a1b2c3d4e5f60708', 'jobs/a1b2c3d4e5f60708/script', 'jobs/a1b2c3d4e5f60708/output.log', '/workspace', 200, 50, 'exited', 'shellctl-a1b2c3d4e5f60708', 'shellctl-a1b2c3d4e5f60708:0.0', 0, NULL, NULL, '2026-07-15T08:00:00Z', '2026-07-15T08:00:01Z', '2026-07-15T08:00:02Z', '2026-07-15T08:00:02Z'),
 ('0f1e2d3c4b5a6978', 'jobs/0f1e2d3c4b5a6978/script', 'jobs/0f1e2d3c4b5a6978/output.log', '/workspace', 200, 50, 'terminated', 'shellctl-0f1e2d3c4b5a6978', 'shellctl-0f1e2d3c4b5a6978:0.0', 0, NULL, NULL, '2026-07-15T08:01:00Z', '2026-07-15T08:01:00Z', '2026-07-15T08:01:30Z', '2026-07-15T08:01:30Z'),
 ('77aa88bb99cc00dd', 'jobs/77aa88bb99cc00dd/script', 'jobs/77aa88bb99cc00dd/output.log', '/tmp', 200, 50, 'running', 'shellctl-77aa88bb99cc00dd', 'shellctl-77aa88bb99cc00dd:0.0', NULL, NULL, NULL, '2026-07-15T08:02:00Z', NULL, NULL, '2026-07-15T08:02:00Z'),
 ('1234abcd5678ef90', '/home/dify/.local/share/shellctl/jobs/1234abcd5678ef90/script', '/home/dify/.local/share/shellctl/jobs/1234abcd5678ef90/output.log', '/workspace', 200, 50, 'exited', 'shellctl-1234abcd5678ef90', 'shellctl-1234abcd5678ef90:0.0', 2, NULL, NULL, '2026-07-15T08:03:00Z', '2026-07-15T08:03:00Z', '2026-07-15T08:03:01Z', '2026-07-15T08:03:01Z');
-- A job GCOnce deleted after the retention (service.go): created, run,
-- ended, then its row deleted; its folder is gone with it.
INSERT INTO jobs VALUES ('deadbeef00c0ffee', 'jobs/deadbeef00c0ffee/script', 'jobs/deadbeef00c0ffee/output.log', '/workspace', 200, 50, 'running', 'shellctl-deadbeef00c0ffee', 'shellctl-deadbeef00c0ffee:0.0', NULL, NULL, NULL, '2026-07-14T07:00:00Z', '2026-07-14T07:00:01Z', NULL, '2026-07-14T07:00:01Z');
UPDATE jobs SET status = 'exited', exit_code = 0, ended_at = '2026-07-14T07:00:09Z', updated_at = '2026-07-14T07:00:09Z', reason = 'normal_exit_after_drain' WHERE job_id = 'deadbeef00c0ffee';
DELETE FROM jobs WHERE job_id = 'deadbeef00c0ffee';

// Package dify reads the shell jobs of Dify's agent sandbox: the Docker or
// Podman volume *dify_agent_local_sandbox_home is the sandbox user's home,
// and its shellctl state directory ($XDG_DATA_HOME/shellctl, by default
// .local/share/shellctl) holds shellctl.db and a jobs/ folder per job.
// Dify's chats live in PostgreSQL, which no home holds.
//
// # dify/shellctl (target "volume", shellctl.db)
//
// jobs in rowid order, SessionID "shellctl:<session_name>" (the tmux
// session the agent's jobs run in): a tool_use row "shell_job" per job
// (ToolUseID "shellctl:<job_id>", ToolInput the cwd, the script path and
// the script's text, secret-shaped values redacted; Text the script) at
// started_at (created_at when it never started), and a tool_result row at
// ended_at with "status <status>, exit code <n>, reason: ..., message:
// ..." and the output log (IsError for failed or lost jobs and a non-zero
// exit code). script_path and output_path are paths inside the sandbox;
// the part from /jobs/ on is read from the collected copy beside the
// database (at most 1 MiB each, cut and marked); a file not collected is
// named as such in the row.
//
// # Validated against
//
// Source, through the code index: the sandbox's shellctl (runner_exit Go
// package and its tests, which create the jobs table; config.go DBPath and
// JobsDir). Synthetic fixture (testdata/shellctl.sql, testdata/jobs/);
// Dify was not run here.
//
// # Not read yet
//
// difyctl's config.yml (collected); the workspace volume.
package dify

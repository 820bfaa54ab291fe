// Package dify reads the shell jobs of Dify's agent sandbox: the Docker or
// Podman volume *dify_agent_local_sandbox_home is the sandbox user's home,
// and its shellctl state directory ($XDG_DATA_HOME/shellctl, by default
// .local/share/shellctl) holds shellctl.db and a jobs/ folder per job.
// Dify's chats live in PostgreSQL, which no home holds.
//
// # dify/shellctl (target "volume", shellctl.db)
//
// jobs in rowid order, SessionID "shellctl:<session_name>" (shellctl runs
// each job in a tmux session of its own, shellctl-<job id>: nothing in the
// store groups the jobs of one agent run, so each job is its own session):
// a tool_use row "shell_job" per job (ToolUseID "shellctl:<job_id>",
// ToolInput the cwd, the script path and the script's text,
// secret-shaped values redacted; Text the script) at started_at
// (created_at when it never started), and a tool_result row at ended_at
// with "status <status>, exit code <n>, reason: ..., message: ..." and
// the output log. IsError is true for a job that ended other than
// "exited" (terminated on request, failed, lost) and for a non-zero exit
// code; the exit code 0 shellctl writes on any terminal transition with
// no recorded exit is said to be shellctl's on a terminated, failed or
// lost job. script_path and output_path are jobs/<id>/script and
// jobs/<id>/output.log relative to the state directory (an absolute path
// under .../jobs/ is read the same way), read from the collected copy
// beside the database (at most 1 MiB each, cut and marked); a file not
// collected is named as such in the row. Jobs GCOnce deleted after the
// retention (their rows and folders removed) are carved from the store's
// freed space (parser.Carve) and given the same rows, marked recovered
// with where they were found; the latest version of each (by updated_at)
// is kept, an older version (every status change rewrites the row) and a
// version of a live job are recovered_copy skips.
//
// # Validated against
//
// Source: langgenius/dify dify-agent-runtime (the Go shellctl), read
// through the code index: internal/server/db.go at 4a3ce25715e2 (the jobs
// table InitSchema, the statuses and IsTerminal, TransitionStatus writing
// exit_code 0 on terminal transitions, RecordRunnerExit),
// internal/server/runtime.go at 476406008d9c (16-hex job ids,
// shellctl-<id> sessions, UTC times to the second), internal/server/
// service.go at 0ed63d2f5545 (RunJob: jobs/<id>/script, output.log and
// .job-env.json; TerminateJob; GCOnce deleting ended jobs after the
// retention), and internal/runner_exit (its tests create the same table);
// the volumes from docker/docker-compose.yaml at 519ef8b8c2d7. Before
// this reading the parser looked for an absolute .../jobs/ path and named
// every real job's script and output "not collected". Synthetic fixture
// (testdata/shellctl.sql, testdata/jobs/); Dify was not run here.
//
// # Not read yet
//
// difyctl's config.yml (collected); the workspace volume; each job's
// .job-env.json (the environment the agent gave it: credentials appear as
// __secret:provider/name__ placeholders, other values as given) and
// runner-exit-code.
package dify

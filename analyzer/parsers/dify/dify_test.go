package dify

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/catalog"
)

var mtime = time.Date(2026, 7, 16, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

const vol = "/var/lib/docker/volumes/docker_dify_agent_local_sandbox_home/_data/.local/share/shellctl/"

func run(t *testing.T, sqlFile, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLite(t, "testdata/"+sqlFile)
	in := parsertest.Input(t, db, parser.File{Path: vol + "shellctl.db", Rel: ".local/share/shellctl/shellctl.db", Agent: agentName, Target: catalog.VolumeTarget, MTime: mtime}, related)
	return parsertest.Golden(t, byID(t, "dify/shellctl"), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		rec := ""
		if e.Recovered != "" {
			rec = " recovered=" + e.Recovered + " (" + e.Provenance + ")"
		}
		fmt.Fprintf(&b, "%d %s %s %s id=%s err=%s t=%s%s: %q in=%s\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.ToolUseID, e.IsError, e.TimeString(), rec, e.Text, e.ToolInput)
	}
	return b.String()
}

// TestShellctl: each job a shell tool call with its script (a bearer
// token redacted) read from the collected job folder by the path the
// sandbox recorded (relative to its state directory, as shellctl writes
// it, or absolute), and a result with status, exit code, reason and the
// output log; a terminated job is an error, and the 0 shellctl writes for
// it is said to be shellctl's; a job whose files were not collected says
// so; a job GCOnce deleted comes back from freed space, its latest
// version, marked recovered.
func TestShellctl(t *testing.T) {
	s := run(t, "shellctl.sql", "shellctl", parsertest.Files{
		vol + "jobs/a1b2c3d4e5f60708/script":     "testdata/jobs/a1b2c3d4e5f60708/script",
		vol + "jobs/a1b2c3d4e5f60708/output.log": "testdata/jobs/a1b2c3d4e5f60708/output.log",
		vol + "jobs/0f1e2d3c4b5a6978/script":     "testdata/jobs/0f1e2d3c4b5a6978/script",
		vol + "jobs/1234abcd5678ef90/script":     "testdata/jobs/0f1e2d3c4b5a6978/script",
	})
	want := `5 shellctl:shellctl-deadbeef00c0ffee tool_use shell_job id=shellctl:deadbeef00c0ffee err= t=2026-07-14T07:00:01.000Z recovered=yes (unallocated space of page 2 at offset 2800): "shell job deadbeef00c0ffee: script jobs/deadbeef00c0ffee/script not collected" in={"cwd":"/workspace","script":"","script_path":"jobs/deadbeef00c0ffee/script"}
5 shellctl:shellctl-deadbeef00c0ffee tool_result shell_job id=shellctl:deadbeef00c0ffee err=false t=2026-07-14T07:00:09.000Z recovered=yes (unallocated space of page 2 at offset 2800): "status exited, exit code 0, reason: normal_exit_after_drain; output jobs/deadbeef00c0ffee/output.log not collected" in=
1 shellctl:shellctl-a1b2c3d4e5f60708 tool_use shell_job id=shellctl:a1b2c3d4e5f60708 err= t=2026-07-15T08:00:01.000Z: "cd /workspace && ls -la\ncurl -H \"Authorization: Bearer [redacted]\" https://api.example.com" in={"cwd":"/workspace","script":"cd /workspace && ls -la\ncurl -H \"Authorization: Bearer [redacted]\" https://api.example.com\n","script_path":"jobs/a1b2c3d4e5f60708/script"}
1 shellctl:shellctl-a1b2c3d4e5f60708 tool_result shell_job id=shellctl:a1b2c3d4e5f60708 err=false t=2026-07-15T08:00:02.000Z: "status exited, exit code 0\ntotal 0\ndrwxr-xr-x 2 dify dify 40 ." in=
2 shellctl:shellctl-0f1e2d3c4b5a6978 tool_use shell_job id=shellctl:0f1e2d3c4b5a6978 err= t=2026-07-15T08:01:00.000Z: "rm -rf /workspace/build" in={"cwd":"/workspace","script":"rm -rf /workspace/build\n","script_path":"jobs/0f1e2d3c4b5a6978/script"}
2 shellctl:shellctl-0f1e2d3c4b5a6978 tool_result shell_job id=shellctl:0f1e2d3c4b5a6978 err=true t=2026-07-15T08:01:30.000Z: "status terminated, exit code 0 (written by shellctl when the job ended without a recorded exit); output jobs/0f1e2d3c4b5a6978/output.log not collected" in=
3 shellctl:shellctl-77aa88bb99cc00dd tool_use shell_job id=shellctl:77aa88bb99cc00dd err= t=2026-07-15T08:02:00.000Z: "shell job 77aa88bb99cc00dd: script jobs/77aa88bb99cc00dd/script not collected" in={"cwd":"/tmp","script":"","script_path":"jobs/77aa88bb99cc00dd/script"}
3 shellctl:shellctl-77aa88bb99cc00dd tool_result shell_job id=shellctl:77aa88bb99cc00dd err=false t=2026-07-15T08:02:00.000Z: "status running; output jobs/77aa88bb99cc00dd/output.log not collected" in=
4 shellctl:shellctl-1234abcd5678ef90 tool_use shell_job id=shellctl:1234abcd5678ef90 err= t=2026-07-15T08:03:00.000Z: "rm -rf /workspace/build" in={"cwd":"/workspace","script":"rm -rf /workspace/build\n","script_path":"/home/dify/.local/share/shellctl/jobs/1234abcd5678ef90/script"}
4 shellctl:shellctl-1234abcd5678ef90 tool_result shell_job id=shellctl:1234abcd5678ef90 err=true t=2026-07-15T08:03:01.000Z: "status exited, exit code 2; output /home/dify/.local/share/shellctl/jobs/1234abcd5678ef90/output.log not collected" in=
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(string(parsertest.Render(s)), "abcdefghijklmnopqr") {
		t.Fatal("the script's token reached the output")
	}
	if len(s.Skips) != 0 || len(s.Problems) != 0 {
		t.Fatalf("skips %v problems %q", s.Skips, s.Problems)
	}
}

// TestOther: a SQLite file without the jobs table is one problem.
func TestOther(t *testing.T) {
	s := run(t, "other.sql", "other", nil)
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not a Dify sandbox shellctl database: none of the tables jobs" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestShellctlSchema (issue 25), on copies of the test store: without
// jobs it is "not a Dify sandbox shellctl database"; a jobs table without
// job_id names table and column; no rows either way (jobs is the one
// table read).
func TestShellctlSchema(t *testing.T) {
	for _, c := range []struct{ stmt, want string }{
		{`DROP TABLE jobs`, "line 0: empty_store: empty store: a SQLite database of 3 page(s) holding no table (never written, or every table dropped), where a Dify sandbox shellctl database should be: nothing to read"},
		{`ALTER TABLE jobs RENAME COLUMN job_id TO id`, "line 0: unknown schema: table jobs lacks column(s) job_id: not read; the other tables are read\nline 0: carve: 1 record(s) of table jobs recovered from freed space; no parser maps this table to rows"},
	} {
		db := parsertest.SQLiteAltered(t, "testdata/shellctl.sql", c.stmt)
		in := parsertest.Input(t, db, parser.File{Path: vol + "shellctl.db", Rel: ".local/share/shellctl/shellctl.db", Agent: agentName, Target: catalog.VolumeTarget, MTime: mtime}, nil)
		s := parsertest.Run(t, byID(t, "dify/shellctl"), in)
		if got := strings.Join(s.Problems, "\n"); got != c.want || len(s.Events) != 0 {
			t.Errorf("%s: %d rows, problems:\n%s", c.stmt, len(s.Events), got)
		}
	}
}

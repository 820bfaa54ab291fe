package dify

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

const agentName = "dify"

// maxJobFile is how much of a job's script or output is put into a row.
const maxJobFile = 1 << 20

var actions = map[string]timeline.Action{"shell_job": timeline.ActExecute}

// Parsers returns the Dify parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "dify/shellctl", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{catalog.VolumeTarget}, Names: []string{"shellctl.db"},
			Doc: "the agent sandbox volume's shellctl.db jobs: each shell job the agent ran as a tool call (its script from the job folder, cwd) and result (its output log, exit code, status, reason); jobs deleted by its garbage collection recovered from freed space",
		}, parseShellctl),
	}
}

func parseShellctl(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	carved := parser.Carve(ctx, in, db, out)
	defer carved.Done(out)
	// a dropped table's schema row holds no evidence of a job
	carved.SkipTables(out, "sqlite_schema")
	readable, err := parser.CheckStore(ctx, db, shellctlStore, out)
	if err != nil {
		return err
	}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "jobs", Read: func() error { return jobs(ctx, db, in, out, carved) }})
}

// shellctlStore is the one table of shellctl.db parseShellctl reads, with
// the column that names a job; the others are read by name when present.
var shellctlStore = parser.SQLiteStore{Name: "a Dify sandbox shellctl", Tables: parser.SQLiteSchema{"jobs": {"job_id"}}}

func jobs(ctx context.Context, db *sql.DB, in *parser.Input, out parser.Sink, carved *parser.Carved) error {
	stateDir := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	live := map[string]bool{}
	err := parser.EachTableRow(ctx, db, "jobs", func(r parser.Row) error {
		live[r.Get("job_id")] = true
		jobRow(in, out, stateDir, r)
		return nil
	})
	carvedJobs(in, out, stateDir, carved, live)
	return err
}

// carvedJobs gives the jobs records the carver recovered from shellctl.db's
// freed space the rows a live job gives, marked recovered: the jobs
// GCOnce deleted after the retention (their folders deleted too, so their
// script and output read "not collected"). Every status change rewrites a
// job's row, so older versions of a job stay in freed space: a version of
// a live job, and all but the latest (by updated_at, then rowid) of a
// deleted one, are recovered_copy skips.
func carvedJobs(in *parser.Input, out parser.Sink, stateDir string, carved *parser.Carved, live map[string]bool) {
	recs := carved.Records("jobs")
	line := func(i int) int64 {
		if recs[i].RowidKnown {
			return recs[i].Rowid
		}
		return 0
	}
	best := map[string]int{}
	lost := 0
	for i := range recs {
		m := recs[i].Row()
		id := parser.SQLText(m["job_id"])
		switch {
		case id == "":
			lost++
			continue
		case live[id]:
			out.Skip(line(i), "recovered_copy:older version of a live job")
			continue
		}
		j, ok := best[id]
		if !ok {
			best[id] = i
			continue
		}
		older := i
		if newer(m, recs[j].Row()) {
			best[id], older = i, j
		}
		out.Skip(line(older), "recovered_copy:older version of a recovered job")
	}
	for i := range recs {
		m := recs[i].Row()
		if j, ok := best[parser.SQLText(m["job_id"])]; !ok || j != i {
			continue
		}
		jobRow(in, parser.RecoveredSink(out, &recs[i]), stateDir, parser.Row{Rowid: line(i), Vals: m})
	}
	if lost > 0 {
		out.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered jobs record(s) lost their job_id: not given rows", lost))
	}
}

// newer reports whether job record a is a later version than b: its
// updated_at is later (the times are UTC to the second, so they compare as
// text).
func newer(a, b map[string]any) bool {
	return parser.SQLText(a["updated_at"]) > parser.SQLText(b["updated_at"])
}

// jobRow gives one job its tool_use and tool_result rows.
func jobRow(in *parser.Input, out parser.Sink, stateDir string, r parser.Row) {
	{
		id := r.Get("job_id")
		base := timeline.Event{SessionID: "shellctl:" + r.Get("session_name"), SourceLine: r.Rowid}
		at := r.Vals["started_at"]
		if _, ok := parser.SQLTime(at); !ok {
			at = r.Vals["created_at"]
		}
		if t, ok := parser.SQLTime(at); ok {
			base.Time = t
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		script, sOK := jobFile(in, stateDir, r.Get("script_path"))
		args := parser.JSONValue(map[string]string{"cwd": r.Get("cwd"), "script_path": r.Get("script_path"), "script": script})
		u := base
		u.TurnType, u.ToolName, u.ToolUseID, u.RecordID = timeline.ToolUse, "shell_job", "shellctl:"+id, "shellctl:"+id
		u.ToolInput = parser.RedactSecrets(args)
		u.Text = parser.RedactSecrets(strings.TrimSpace(script))
		if !sOK {
			u.Text = "shell job " + parser.Shown(id) + ": script " + r.Get("script_path") + " not collected"
		}
		out.Event(u)
		res := base
		if t, ok := parser.SQLTime(r.Vals["ended_at"]); ok {
			res.Time, res.TimeBasis = t, timeline.TimeRecorded
		}
		res.TurnType, res.ToolName, res.ToolUseID, res.RecordID = timeline.ToolResult, "shell_job", "shellctl:"+id, "shellctl:"+id+":result"
		output, oOK := jobFile(in, stateDir, r.Get("output_path"))
		status, ec := r.Get("status"), r.Get("exit_code")
		head := fmt.Sprintf("status %s", status)
		if ec != "" {
			head += ", exit code " + ec
			if ec == "0" && status != "exited" && ended(status) {
				// TransitionStatus writes 0 on any terminal transition when no
				// exit was recorded (db.go): not the process's own.
				head += " (written by shellctl when the job ended without a recorded exit)"
			}
		}
		for _, c := range []string{"reason", "message"} {
			if v := r.Get(c); v != "" {
				head += ", " + c + ": " + v
			}
		}
		if !oOK {
			head += "; output " + r.Get("output_path") + " not collected"
		}
		res.Text = parser.RedactSecrets(strings.TrimSpace(head + "\n" + output))
		res.IsError = fmt.Sprint((ended(status) && status != "exited") || (ec != "" && ec != "0"))
		out.Event(res)
	}
}

// jobFile reads a job's script or output, named by its path inside the
// sandbox (under <state dir>/jobs/), from the collected copy beside the
// database: the part after the state directory's name is joined to the
// database's folder.
func jobFile(in *parser.Input, stateDir, p string) (string, bool) {
	p = strings.ReplaceAll(p, "\\", "/")
	var rel string
	switch i := strings.Index(p, "/jobs/"); {
	case strings.HasPrefix(p, "jobs/"):
		// shellctl stores jobs/<id>/script relative to its state directory
		rel = p
	case i >= 0:
		rel = p[i+1:]
	default:
		return "", false
	}
	if strings.Contains("/"+rel+"/", "/../") {
		return "", false
	}
	b, ok := in.ReadRelated(stateDir+"/"+rel, maxJobFile)
	if !ok {
		return "", false
	}
	s := string(b)
	if len(b) == maxJobFile {
		s += "\n[cut at 1 MiB]"
	}
	return s, true
}

// ended reports whether a job status is terminal (db.go IsTerminal):
// exited, terminated (stopped on request), failed, lost (its tmux session
// gone).
func ended(status string) bool {
	switch status {
	case "exited", "terminated", "failed", "lost":
		return true
	}
	return false
}

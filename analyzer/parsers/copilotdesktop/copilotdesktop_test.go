package copilotdesktop

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

func dbInput(t *testing.T, sqlFile string) *parser.Input {
	t.Helper()
	local := parsertest.SQLite(t, sqlFile)
	f := parser.File{Path: "/home/examiner/.copilot/data.db", Agent: Agent, Target: "data-db",
		MTime: parsertest.Time(t, "2026-10-17T12:00:00Z")}
	return parsertest.Input(t, local, f, nil)
}

func TestDataDBGolden(t *testing.T) {
	for _, c := range []string{"typical", "minimal", "empty"} {
		t.Run(c, func(t *testing.T) {
			parsertest.Golden(t, byID(t, "copilot-desktop/data-db"), dbInput(t, "testdata/"+c+".sql"), "testdata/"+c+".golden.jsonl")
		})
	}
}

func rowsWith(s *parsertest.Sink, prefix string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, prefix) {
			out = append(out, e)
		}
	}
	return out
}

func TestDataDBTypical(t *testing.T) {
	s := parsertest.Run(t, byID(t, "copilot-desktop/data-db"), dbInput(t, "testdata/typical.sql"))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "SECRET") || strings.Contains(e.Text, "NEVERPRINTME") || strings.Contains(e.Text, "sk-local-secret") {
			t.Fatalf("secret printed: %q", e.Text)
		}
		if e.TurnType != timeline.System {
			t.Fatalf("non-system row %+v", e)
		}
	}
	acc := rowsWith(s, "account: ")
	if len(acc) != 2 || !strings.HasPrefix(acc[0].Text, "account: examiner id=acc1 host=github.com") || !strings.Contains(acc[0].Text, "oauth_token=present") ||
		!strings.Contains(acc[1].Text, "oauth_token=absent") || !acc[0].Time.Equal(parsertest.Time(t, "2026-10-16T08:00:00Z")) {
		t.Fatalf("accounts: %+v", acc)
	}
	set := rowsWith(s, "desktop settings: ")
	if len(set) != 3 || set[0].Text != `desktop settings: theme="dark" (from data.db, file mtime)` || set[0].TimeBasis != timeline.TimeFileMTime ||
		set[2].Text != "desktop settings: githubToken=[redacted] (from data.db, file mtime)" {
		t.Fatalf("settings: %+v", set)
	}
	prj := rowsWith(s, "project added: ")
	if len(prj) != 1 || prj[0].ProjectPath != "/home/examiner/demo" {
		t.Fatalf("projects: %+v", prj)
	}
	ds := rowsWith(s, "desktop session: ")
	if len(ds) != 2 || ds[0].SessionID != "aaaaaaaa-1111-2222-3333-444444444444" || ds[0].ProjectPath != "/home/examiner/demo" ||
		!strings.Contains(ds[0].Text, "model=claude-sonnet-4.5 auto_approve=0 permission_mode=default remote_control_enabled=1 archived=0") ||
		!ds[0].Time.Equal(parsertest.Time(t, "2026-10-16T08:12:00Z")) {
		t.Fatalf("sessions: %+v", ds)
	}
	fork := rowsWith(s, "forked from session ")
	if len(fork) != 1 || fork[0].Text != "forked from session aaaaaaaa-1111-2222-3333-444444444444" || fork[0].SessionID != "bbbbbbbb-1111-2222-3333-444444444444" {
		t.Fatalf("fork: %+v", fork)
	}
	arch := rowsWith(s, "desktop session archived")
	if len(arch) != 1 || !arch[0].Time.Equal(parsertest.Time(t, "2026-10-16T09:00:00Z")) {
		t.Fatalf("archived: %+v", arch)
	}
	for _, p := range []string{"model provider: ", "worktree: ", "workspace: ", "activity: ", "session checkpoint: ", "scheduled task: ",
		"scheduled task trigger: ", "scheduled task run: ", "session automation: ", "session deletion intent: "} {
		if len(rowsWith(s, p)) != 1 {
			t.Errorf("want one %q row", p)
		}
	}
	if mp := rowsWith(s, "model provider: ")[0]; !mp.Time.Equal(parsertest.Time(t, "2026-10-16T08:00:00Z")) || !strings.Contains(mp.Text, "api_key=present") {
		t.Errorf("model provider row: %+v", mp)
	}
	if ws := rowsWith(s, "workspace: ")[0]; !strings.Contains(ws.Text, "created_pull_request_url=https://github.com/examiner/demo/pull/7") {
		t.Errorf("workspace row: %q", ws.Text)
	}
	if run := rowsWith(s, "scheduled task run: ")[0]; run.SessionID != "cccccccc-1111-2222-3333-444444444444" || !run.Time.Equal(parsertest.Time(t, "2026-10-17T00:00:00Z")) {
		t.Errorf("run row: %+v", run)
	}
}

func TestDataDBNotSQLite(t *testing.T) {
	f := parser.File{Path: "/home/examiner/.copilot/data.db", Agent: Agent, Target: "data-db"}
	s := parsertest.Run(t, byID(t, "copilot-desktop/data-db"), parsertest.Input(t, "testdata/refs/bad", f, nil))
	if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "error: ") {
		t.Fatalf("events %+v problems %v", s.Events, s.Problems)
	}
}

func TestCheckpointRef(t *testing.T) {
	p := byID(t, "copilot-desktop/checkpoint-ref")
	const orig = "/home/examiner/.copilot/repos/demo/.git/refs/copilot/checkpoints/aaaaaaaa-1111-2222-3333-444444444444/3/ev-42"
	mt := parsertest.Time(t, "2026-10-16T08:25:00Z")
	f := parser.File{Path: orig, Agent: Agent, Target: "checkpoint-refs", MTime: mt}
	if !p.Match(&f) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, parsertest.Input(t, "testdata/refs/ref", f, nil), "testdata/ref.golden.jsonl")
	if len(s.Events) != 1 || s.Events[0].Text != "checkpoint ref 3: commit 89abcdef0123456789abcdef0123456789abcdef event ev-42 (file mtime)" ||
		s.Events[0].SessionID != "aaaaaaaa-1111-2222-3333-444444444444" || !s.Events[0].Time.Equal(mt) || s.Events[0].TimeBasis != timeline.TimeFileMTime {
		t.Fatalf("rows: %+v", s.Events)
	}
	for _, c := range []struct{ local, problem string }{{"testdata/refs/bad", "line 1: ref content is not a commit hash"}, {"testdata/refs/empty", "line 1: empty ref"}} {
		s := parsertest.Run(t, p, parsertest.Input(t, c.local, f, nil))
		if len(s.Events) != 1 || len(s.Problems) != 1 || s.Problems[0] != c.problem {
			t.Fatalf("%s: events %+v problems %v", c.local, s.Events, s.Problems)
		}
	}
	f.Path = "/home/examiner/.copilot/repos/demo/.git/refs/copilot/checkpoints/loose"
	s = parsertest.Run(t, p, parsertest.Input(t, "testdata/refs/ref", f, nil))
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("short path: %+v %v", s.Events, s.Problems)
	}
}

// TestDataDBContract: issue 12 for data.db: each row carries its record's
// id in its table, a fork's session state names the session it was forked
// from, and the alias rows (a join, no row of their own) are skips.
func TestDataDBContract(t *testing.T) {
	s := parsertest.Run(t, byID(t, "copilot-desktop/data-db"), dbInput(t, "testdata/typical.sql"))
	ids := map[string]string{}
	for _, e := range s.Events {
		ids[e.Text] = e.RecordID
		if e.RecordID == "" {
			t.Errorf("row without a record id: %q", e.Text)
		}
	}
	if ids["forked from session aaaaaaaa-1111-2222-3333-444444444444"] != "sessions/bbbbbbbb-1111-2222-3333-444444444444#forked" ||
		ids["desktop session archived"] != "sessions/bbbbbbbb-1111-2222-3333-444444444444#archived" {
		t.Fatalf("derived ids: %v", ids)
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != "bbbbbbbb-1111-2222-3333-444444444444" ||
		s.States[0].ForkedFrom != "aaaaaaaa-1111-2222-3333-444444444444" || s.States[0].Key.Agent != Agent {
		t.Fatalf("states: %+v", s.States)
	}
	if len(s.Skips) != 2 || s.SkipCounts()["state_only"] != 2 {
		t.Fatalf("skips: %+v", s.Skips)
	}
}

// The schema policy (issue 25), on copies of the typical store: without
// session_checkpoints it is one problem naming it and every other row is
// there; no column is required (the column names are not published), so
// accounts without login still gives its two account rows (named by
// their ids) and no problem.
func TestDataDBSchema(t *testing.T) {
	p := byID(t, "copilot-desktop/data-db")
	f := parser.File{Path: "/home/examiner/.copilot/data.db", Agent: Agent, Target: "data-db"}
	run := func(stmt string) *parsertest.Sink {
		return parsertest.Run(t, p, parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", stmt), f, nil))
	}
	render := func(s *parsertest.Sink, drop string) []string {
		var out []string
		for _, e := range s.Events {
			if drop == "" || !strings.HasPrefix(e.RecordID, drop) {
				out = append(out, e.RecordID+" "+e.Text)
			}
		}
		return out
	}
	full := parsertest.Run(t, p, dbInput(t, "testdata/typical.sql"))
	s := run(`DROP TABLE session_checkpoints`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: table session_checkpoints missing: its rows cannot be read; the other tables are read" {
		t.Fatalf("problems:\n%s", got)
	}
	want := render(full, "session_checkpoints/")
	if got := render(s, ""); strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(full.Events)-1 {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	s = run(`ALTER TABLE accounts DROP COLUMN login`)
	if len(s.Problems) != 0 || len(s.Events) != len(full.Events) {
		t.Fatalf("%d rows of %d, problems %q", len(s.Events), len(full.Events), s.Problems)
	}
	if a := rowsWith(s, "account: "); len(a) != 2 || !strings.HasPrefix(a[0].Text, "account: acc1 id=acc1 host=github.com ") || a[1].RecordID != "accounts/acc2" {
		t.Fatalf("account rows %+v", a)
	}
}

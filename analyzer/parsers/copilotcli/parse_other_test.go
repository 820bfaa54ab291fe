package copilotcli

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func TestSettings(t *testing.T) {
	p := byID(t, "copilot-cli/settings")
	mt := parsertest.Time(t, "2026-10-15T08:00:00Z")
	run := func(name, local string) *parsertest.Sink {
		f := parser.File{Path: "/home/examiner/.copilot/" + name, Agent: Agent, Target: "settings", MTime: mt}
		if !p.Match(&f) {
			t.Fatalf("%s not matched", name)
		}
		return parsertest.Golden(t, p, parsertest.Input(t, local, f, nil), strings.TrimSuffix(local, ".json")+".golden.jsonl")
	}
	s := run("permissions-config.json", "testdata/settings/permissions-config.json")
	if len(s.Events) != 3 ||
		s.Events[0].Text != `permission setting: locations./home/examiner/demo.tool_approvals[]={"kind":"commands","command_identifiers":["git status","npm test"]} (from /home/examiner/.copilot/permissions-config.json, file mtime)` ||
		s.Events[0].ProjectPath != "/home/examiner/demo" || s.Events[2].ProjectPath != "/home/examiner/other" ||
		s.Events[0].TimeBasis != timeline.TimeFileMTime || !s.Events[0].Time.Equal(mt) {
		t.Fatalf("permissions-config rows: %+v", s.Events)
	}
	s = run("settings.json", "testdata/settings/settings.json")
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, strings.TrimSuffix(e.Text, " (from /home/examiner/.copilot/settings.json, file mtime)"))
	}
	want := []string{
		"permission setting: allowedUrls[]=https://docs.github.com",
		"permission setting: allowedUrls[]=https://example.com/*",
		"permission setting: deniedUrls[]=https://evil.example",
		"permission setting: permissions.disableBypassPermissionsMode=disable",
		"permission setting: trusted_folders[]=/home/examiner/demo",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("settings rows:\n%s", strings.Join(texts, "\n"))
	}
	f := parser.File{Path: "/home/examiner/.copilot/permissions-config.json", Agent: Agent, Target: "settings"}
	bad := parsertest.Run(t, p, parsertest.Input(t, "testdata/settings/bad.json", f, nil))
	if len(bad.Events) != 0 || len(bad.Problems) != 1 {
		t.Fatalf("bad: %+v %v", bad.Events, bad.Problems)
	}
}

func TestProcessLog(t *testing.T) {
	p := byID(t, "copilot-cli/process-log")
	f := parser.File{Path: "/home/examiner/.copilot/logs/process-1792054800000-4242.log", Agent: Agent, Target: "logs"}
	if !p.Match(&f) {
		t.Fatal("not matched")
	}
	s := parsertest.Golden(t, p, parsertest.Input(t, "testdata/logs/process-1792054800000-4242.log", f, nil), "testdata/process_log.golden.jsonl")
	if len(s.Events) != 2 ||
		s.Events[0].Text != "sign-in: [INFO] Logged in as user: examiner (github.com) with token [redacted]" ||
		!s.Events[0].Time.Equal(parsertest.Time(t, "2026-10-15T09:00:00.480Z")) || s.Events[0].TimeBasis != timeline.TimeRecorded ||
		s.Events[1].Text != "sign-in: [INFO] Signed out" || s.Events[1].TimeBasis != timeline.TimeLocalAsUTC || s.Events[1].SourceLine != 4 {
		t.Fatalf("rows: %+v", s.Events)
	}
}

func TestSessionStore(t *testing.T) {
	p := byID(t, "copilot-cli/session-store")
	local := parsertest.SQLite(t, "testdata/store/session-store.sql")
	f := parser.File{Path: "/home/examiner/.copilot/session-store.db", Agent: Agent, Target: "session-store"}
	s := parsertest.Golden(t, p, parsertest.Input(t, local, f, nil), "testdata/session_store.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatal(s.Problems)
	}
	for _, e := range s.Events {
		if !e.Secondary || e.SessionID != "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f" || e.ProjectPath != "/home/examiner/demo" {
			t.Fatalf("row %+v", e)
		}
	}
	var user, asst, ck *timeline.Event
	for i := range s.Events {
		e := &s.Events[i]
		switch {
		case e.TurnType == timeline.User:
			user = e
		case e.TurnType == timeline.Assistant:
			asst = e
		case strings.HasPrefix(e.Text, "checkpoints: "):
			ck = e
		}
	}
	if user == nil || user.Text != "list the files and delete tmp.txt" || !user.Time.Equal(parsertest.Time(t, "2026-10-15T09:00:10.100Z")) ||
		asst == nil || !strings.HasPrefix(asst.Text, "I listed the files") {
		t.Fatalf("turn rows: %+v %+v", user, asst)
	}
	if ck == nil || ck.Text != "checkpoints: id=1 checkpoint_number=1 title=After listing created_at=1792054850000" || !ck.Time.Equal(parsertest.Time(t, "2026-10-15T09:00:50Z")) {
		t.Fatalf("checkpoint row: %+v", ck)
	}
	notDB := parsertest.Run(t, p, parsertest.Input(t, "testdata/settings/bad.json", f, nil))
	if len(notDB.Events) != 0 || len(notDB.Problems) != 1 {
		t.Fatalf("not a db: %+v %v", notDB.Events, notDB.Problems)
	}
}

func TestCommandHistory(t *testing.T) {
	p := byID(t, "copilot-cli/command-history")
	f := parser.File{Path: "/home/examiner/.copilot/command-history-state.json", Agent: Agent, Target: "command-history"}
	s := parsertest.Golden(t, p, parsertest.Input(t, "testdata/history/command-history-state.json", f, nil), "testdata/command_history.golden.jsonl")
	if len(s.Events) != 2 || s.Events[0].Text != "list the files and delete tmp.txt" || s.Events[1].Text != "/model gpt-5.4" ||
		!s.Events[0].Secondary || s.Events[0].TimeBasis != timeline.TimeNone || s.Events[1].SourceLine != 2 {
		t.Fatalf("rows: %+v", s.Events)
	}
	bad := parsertest.Run(t, p, parsertest.Input(t, "testdata/history/bad.json", f, nil))
	if len(bad.Events) != 0 || len(bad.Problems) != 1 {
		t.Fatalf("bad: %v", bad.Problems)
	}
}

func TestRewindIndex(t *testing.T) {
	p := byID(t, "copilot-cli/rewind-index")
	const sdir = "/home/examiner/.copilot/session-state/6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
	f := parser.File{Path: sdir + "/rewind-file-snapshots/index.json", Agent: Agent, Target: "rewind-index"}
	related := parsertest.Files{sdir + "/workspace.yaml": "testdata/typical/6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f/workspace.yaml"}
	s := parsertest.Golden(t, p, parsertest.Input(t, "testdata/history/index.json", f, related), "testdata/rewind_index.golden.jsonl")
	if len(s.Events) != 3 || s.Events[0].TurnType != timeline.User || s.Events[0].Text != "list the files and delete tmp.txt" ||
		s.Events[1].Text != "rewind snapshot: snapshotId=s0 eventId=e06 files /home/examiner/demo/tmp.txt" ||
		s.Events[0].ProjectPath != "/home/examiner/demo" || s.Events[0].SessionID != "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f" || !s.Events[0].Secondary {
		t.Fatalf("rows: %+v", s.Events)
	}
}

// The schema policy (issue 25), on copies of the test store: without
// checkpoints it is one problem naming the table and every other table's
// rows are all there; a turns table without turn_index names table and
// column and every other row is there; a store with none of the tables is
// "not a Copilot CLI session-store database".
func TestSessionStoreSchema(t *testing.T) {
	p := byID(t, "copilot-cli/session-store")
	f := parser.File{Path: "/home/examiner/.copilot/session-store.db", Agent: Agent, Target: "session-store"}
	run := func(stmts ...string) *parsertest.Sink {
		return parsertest.Run(t, p, parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/store/session-store.sql", stmts...), f, nil))
	}
	texts := func(s *parsertest.Sink, drop func(timeline.Event) bool) string {
		var out []string
		for _, e := range s.Events {
			if !drop(e) {
				out = append(out, string(e.TurnType)+" "+e.RecordID+" "+e.Text)
			}
		}
		return strings.Join(out, "\n")
	}
	full := run()
	none := func(timeline.Event) bool { return false }
	s := run(`DROP TABLE checkpoints`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: table checkpoints missing: its rows cannot be read; the other tables are read" {
		t.Fatalf("problems:\n%s", got)
	}
	want := texts(full, func(e timeline.Event) bool { return strings.HasPrefix(e.Text, "checkpoints: ") })
	if got := texts(s, none); got != want || len(s.Events) != len(full.Events)-1 {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	s = run(`ALTER TABLE turns DROP COLUMN turn_index`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: unknown schema: table turns lacks column(s) turn_index: not read; the other tables are read" {
		t.Fatalf("problems:\n%s", got)
	}
	want = texts(full, func(e timeline.Event) bool { return e.TurnType == timeline.User || e.TurnType == timeline.Assistant })
	if got := texts(s, none); got != want || len(s.Events) != len(full.Events)-2 {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	s = run(`DROP TABLE sessions`, `DROP TABLE turns`, `DROP TABLE session_files`, `DROP TABLE session_refs`, `DROP TABLE checkpoints`, `DROP TABLE forge_trajectory_events`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: not a Copilot CLI session-store database: none of the tables checkpoints, forge_trajectory_events, session_files, session_refs, sessions, turns" || len(s.Events) != 0 {
		t.Fatalf("%d rows, problems:\n%s", len(s.Events), got)
	}
}

package codex

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func stateInput(t *testing.T, local string) *parser.Input {
	return parsertest.Input(t, local, parser.File{Path: "/home/examiner/.codex/state_5.sqlite", Agent: agentName, Target: "state-db"}, nil)
}

func TestStateDBGolden(t *testing.T) {
	p := byID(t, "codex-cli/state-db")
	s := parsertest.Golden(t, p, stateInput(t, parsertest.SQLite(t, "testdata/state_5.sql")), "testdata/state_5.golden.jsonl")
	for _, e := range s.Events {
		if !e.Secondary {
			t.Fatalf("not secondary: %+v", e)
		}
	}
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[0].Text != "list the files" || u[0].TimeString() != "2026-03-02T09:00:00.100Z" ||
		u[0].SessionID != "0199bbbb-0000-7000-8000-000000000002" || u[0].SourceLine != 1 {
		t.Fatalf("user rows: %+v", u)
	}
	want := "thread record: source=cli originator=codex_cli_rs cli_version=0.120.0 model_provider=openai model=gpt-5-codex approval=on-request sandbox=workspace-write rollout=/home/examiner/.codex/sessions/2026/03/02/rollout-2026-03-02T10-00-00-0199bbbb-0000-7000-8000-000000000002.jsonl"
	if r := withText(s, "thread record: source=cli"); len(r) != 1 || r[0].Text != want {
		t.Fatalf("record: %+v", r)
	}
	if a := withText(s, "thread archived"); len(a) != 1 || a[0].TimeString() != "2026-03-08T20:00:00.000Z" {
		t.Fatalf("archived: %+v", a)
	}
	if e := withText(s, "subagent 0199adad-0000-7000-8000-00000000000b of 0199adad-0000-7000-8000-0000000000aa"); len(e) != 1 ||
		e[0].ParentSessionID != "0199adad-0000-7000-8000-0000000000aa" || e[0].RecordID != "0199adad-0000-7000-8000-00000000000b#spawn" {
		t.Fatalf("spawn edge rows: %+v", withText(s, "subagent"))
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != "0199adad-0000-7000-8000-00000000000b" || s.States[0].ParentSessionID != "0199adad-0000-7000-8000-0000000000aa" {
		t.Fatalf("states: %+v", s.States)
	}
	// Remote Control enrolment (issue 16): a row of its own, in no session.
	if r := withText(s, "remote control:"); len(r) != 1 || r[0].SessionID != "" || r[0].TimeString() != "2026-03-08T09:00:00.000Z" ||
		r[0].Text != "remote control: enrolled server examiner-macbook (server_id=srv_01 environment_id=env_07 client=Codex Desktop enabled=yes websocket=wss://chatgpt.com/backend-api/codex/remote account=acct-1234)" {
		t.Fatalf("remote control rows: %+v", r)
	}
	// Failed guardian reviews (openai/codex #51651): one permission
	// decision each, at the record id's time; a record that is no JSON is
	// a counted skipped_record.
	g := withText(s, "permission decision:")
	if len(g) != 2 ||
		g[0].Text != `permission decision: denied source=guardian_review status=denied action=rm -rf ~ (turn turn-9, reviewer thread 0199bbbb-0000-7000-8000-0000000000f0, model gpt-5.5-mini) decision={"outcome":"deny","rationale":"deletes the home folder"}` ||
		g[0].ToolUseID != "call_rm_9" || g[0].SessionID != "0199bbbb-0000-7000-8000-000000000002" || g[0].TimeString() != "2026-03-08T10:00:00.000Z" ||
		g[0].RecordID != "guardian_review:019ccce3-b100-7000-8000-0000000000f1" ||
		g[1].Text != "permission decision: denied source=guardian_review status=timed_out action=curl https://example.net | sh (turn turn-10, reviewer thread 0199bbbb-0000-7000-8000-0000000000f0, model gpt-5.5-mini)" ||
		g[1].ToolUseID != "" {
		t.Fatalf("guardian rows: %+v", g)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "review this") {
			t.Fatalf("reviewer instructions printed: %s", e.Text)
		}
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 3: skipped_record: guardian review record 019ccce9-2f40-7000-8000-0000000000f3 is not valid JSON: invalid character 'o' in literal null (expecting 'u')") {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func TestStateDBOldSchema(t *testing.T) {
	s := parsertest.Run(t, byID(t, "codex-cli/state-db"), stateInput(t, parsertest.SQLite(t, "testdata/state_old.sql")))
	if len(s.Events) != 1 || !strings.Contains(s.Events[0].Text, `title="refactor the parser"`) || s.Events[0].TimeString() != "2025-12-01T09:00:00.000Z" {
		t.Fatalf("rows: %+v %v", s.Events, s.Problems)
	}
}

func TestStateDBNoThreads(t *testing.T) {
	dir := t.TempDir()
	sqlFile := filepath.Join(dir, "x.sql")
	os.WriteFile(sqlFile, []byte("CREATE TABLE other (a TEXT);"), 0o644)
	s := parsertest.Run(t, byID(t, "codex-cli/state-db"), stateInput(t, parsertest.SQLite(t, sqlFile)))
	if want := "line 0: not a Codex state database: none of the tables guardian_review_feedback, remote_control_enrollments, threads"; len(s.Events) != 0 || strings.Join(s.Problems, "|") != want {
		t.Fatalf("%+v %v, want %q", s.Events, s.Problems, want)
	}
}

// The state_5.sqlite Codex 0.171.0 wrote in the real-agent fixture: each
// scenario's thread with its first prompt.
func TestStateDBRealAgentFixture(t *testing.T) {
	root := filepath.Join("..", "..", "..", "fixtures", "roots")
	db := filepath.Join(root, "real-agents", "home", "examiner", ".codex", "state_5.sqlite")
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("real-agent fixture: %v", err)
	}
	// The store is kept as Codex wrote it, with its -wal and -shm: even a
	// read-only connection rewrites the -shm (the WAL index), so read a copy.
	tmp := filepath.Join(t.TempDir(), "state_5.sqlite")
	for _, suf := range []string{"", "-wal", "-shm", "-journal"} {
		b, err := os.ReadFile(db + suf)
		if err != nil {
			continue
		}
		if err := os.WriteFile(tmp+suf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := parsertest.Run(t, byID(t, "codex-cli/state-db"), stateInput(t, tmp))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	var exp fixtureExpect
	if !readExpect(t, root, &exp) {
		return
	}
	for _, sc := range exp.Codex.Scenarios {
		if sc.Scenario == "resume" {
			continue // the same thread as basic
		}
		u := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User && e.SessionID == sc.SessionID })
		if len(u) != 1 || !strings.HasPrefix(sc.Prompt, strings.TrimSuffix(u[0].Text, "…")) {
			t.Fatalf("thread %s: user rows %+v in state_5.sqlite, want its first prompt once", sc.SessionID, u)
		}
		r := find(s, func(e *timeline.Event) bool {
			return e.SessionID == sc.SessionID && strings.HasPrefix(e.Text, "thread record: ")
		})
		if len(r) != 1 || !strings.Contains(r[0].Text, "originator=codex_exec cli_version="+exp.Codex.Version) {
			t.Fatalf("record: %+v", r)
		}
	}
}

// TestStateDBUnknownSchema: a copy of the fixture store whose threads
// table lacks id (renamed with modernc sqlite on the copy): one problem
// names the table and the column, no thread row is read, and the remote
// control and guardian review tables are read as in the full store.
func TestStateDBUnknownSchema(t *testing.T) {
	p := parsertest.SQLite(t, "testdata/state_5.sql")
	full := parsertest.Run(t, byID(t, "codex-cli/state-db"), stateInput(t, p))
	alt := filepath.Join(t.TempDir(), "state_5.sqlite")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alt, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", alt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`ALTER TABLE threads RENAME COLUMN id TO thread_id`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := parsertest.Run(t, byID(t, "codex-cli/state-db"), stateInput(t, alt))
	want := []string{
		"line 0: unknown schema: table threads lacks column(s) id: not read; the other tables are read",
		"line 3: skipped_record: guardian review record 019ccce9-2f40-7000-8000-0000000000f3 is not valid JSON: invalid character 'o' in literal null (expecting 'u')",
	}
	if strings.Join(s.Problems, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(s.Problems, "\n"), strings.Join(want, "\n"))
	}
	count := func(s *parsertest.Sink, prefix string) int {
		n := 0
		for _, e := range s.Events {
			if strings.HasPrefix(e.Text, prefix) {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		prefix   string
		got, all int
	}{
		{"remote control: ", 1, 1},
		{"permission decision: ", 2, 2},
	} {
		if n, m := count(s, c.prefix), count(full, c.prefix); n != c.got || m != c.all {
			t.Errorf("%q rows: %d (full store %d), want %d (full %d)", c.prefix, n, m, c.got, c.all)
		}
	}
	if len(s.Events) != 3 || len(full.Events) <= 3 {
		t.Errorf("%d rows (full store %d): want only the 3 rows of the other tables", len(s.Events), len(full.Events))
	}
}

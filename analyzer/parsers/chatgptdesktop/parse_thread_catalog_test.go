package chatgptdesktop

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const dbPath = "/Users/alice/.codex/sqlite/codex-dev.db"

func dbFile() parser.File {
	return parser.File{Path: dbPath, Agent: FileAgent, Target: "state-db"}
}

func TestMatch(t *testing.T) {
	p := ThreadCatalog()
	for _, c := range []struct {
		f    parser.File
		want bool
	}{
		{parser.File{Path: dbPath, Agent: "codex-cli", Target: "state-db"}, true},
		{parser.File{Path: "C:/Users/bob/.codex/sqlite/codex-dev.db", Agent: "codex-cli", Target: "state-db"}, true},
		{parser.File{Path: "/home/u/.codex/state_5.sqlite", Agent: "codex-cli", Target: "state-db"}, false},
		{parser.File{Path: dbPath, Agent: "chatgpt-desktop", Target: "state-db"}, false},
		{parser.File{Path: dbPath, Agent: "codex-cli", Target: "sessions"}, false},
	} {
		if got := p.Match(&c.f); got != c.want {
			t.Errorf("Match(%s %s %s) = %v, want %v", c.f.Agent, c.f.Target, c.f.Path, got, c.want)
		}
	}
}

func TestGolden(t *testing.T) {
	for _, c := range []string{"typical", "detail_origin", "minimal_columns", "no_source_kind", "empty", "no_table", "without_rowid"} {
		t.Run(c, func(t *testing.T) {
			db := parsertest.SQLite(t, "testdata/"+c+".sql")
			parsertest.Golden(t, ThreadCatalog(), parsertest.Input(t, db, dbFile(), nil), "testdata/"+c+".golden.jsonl")
		})
	}
}

func TestMalformedDatabase(t *testing.T) {
	s := parsertest.Golden(t, ThreadCatalog(), parsertest.Input(t, "testdata/not_sqlite.db", dbFile(), nil), "testdata/not_sqlite.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "error: ") {
		t.Fatalf("want one error and no rows, got %d rows, problems %q", len(s.Events), s.Problems)
	}
}

// TestTypicalValues checks the real values of the typical case: the vscode
// row is skipped, every row carries chatgpt-desktop, the three wordings,
// times in seconds and milliseconds, and the session states.
func TestTypicalValues(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/typical.sql")
	s := parsertest.Run(t, ThreadCatalog(), parsertest.Input(t, db, dbFile(), nil))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %q", s.Problems)
	}
	if len(s.Events) != 6 {
		t.Fatalf("want 6 rows (3 per chatgpt row), got %d", len(s.Events))
	}
	a := "68f0c1d2-1111-8000-9abc-0123456789ab"
	want := []string{
		"account conversation: Trip planning for Lisbon conversation_origin=web created=2025-10-15T09:20:00.000Z updated=2025-10-15T10:20:00.000Z host_id=acct-host-7f3a",
		"session origin: remote chatgpt.com conversation " + a,
		"session synced: chatgpt.com holds conversation " + a + ", no local transcript",
	}
	for i, w := range want {
		e := s.Events[i]
		if e.Text != w {
			t.Errorf("row %d text %q, want %q", i, e.Text, w)
		}
		if e.Agent != Agent || e.SessionID != a || e.TurnType != timeline.System || e.SourceLine != 1 || e.Secondary {
			t.Errorf("row %d: %+v", i, e)
		}
		if !e.Time.Equal(parsertest.Time(t, "2025-10-15T10:20:00Z")) || e.TimeBasis != timeline.TimeRecorded {
			t.Errorf("row %d time %v basis %q", i, e.Time, e.TimeBasis)
		}
		if id := a + []string{"#conversation", "#origin", "#synced"}[i]; e.RecordID != id {
			t.Errorf("row %d record id %q, want %q", i, e.RecordID, id)
		}
	}
	// the vscode row (a Codex-mode thread, read by codex-cli) is counted
	if sk := s.SkipCounts(); len(sk) != 1 || sk["read_by:codex-cli/rollout"] != 1 || s.Skips[0].Line != 2 {
		t.Errorf("skips: %v %v", sk, s.Skips)
	}
	b := s.Events[3]
	if b.SessionID != "68f0c1d2-3333-8000-9abc-0123456789ab" || b.SourceLine != 3 ||
		!b.Time.Equal(parsertest.Time(t, "2025-10-15T14:55:00Z")) ||
		!strings.Contains(b.Text, "conversation_origin=desktop created=2025-10-15T14:53:20.000Z") {
		t.Errorf("ms row: %+v", b)
	}
	for _, e := range s.Events {
		if strings.Contains(e.SessionID, "019a0000") {
			t.Errorf("vscode row emitted: %+v", e)
		}
	}
	if len(s.States) != 2 {
		t.Fatalf("want 2 session states, got %d", len(s.States))
	}
	for _, st := range s.States {
		if st.Key.Agent != Agent || st.Origin != "remote" || st.Synced != "yes" {
			t.Errorf("state %+v", st)
		}
	}
}

func TestFallbacks(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/detail_origin.sql")
	s := parsertest.Run(t, ThreadCatalog(), parsertest.Input(t, db, dbFile(), nil))
	by := map[string]timeline.Event{}
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, "account conversation: ") {
			by[e.SessionID] = e
		}
	}
	if e := by["conv-a"]; e.Text != "account conversation: Recipe ideas conversation_origin=ios created=2026-10-15T08:00:00.000Z updated=2026-10-15T09:30:00.250Z host_id=h1" {
		t.Errorf("conv-a: %q", e.Text)
	}
	if e := by["conv-b"]; !e.Time.Equal(parsertest.Time(t, "2025-10-16T07:33:20Z")) || e.Text != "account conversation: - conversation_origin=- created=- updated=- host_id=h1" {
		t.Errorf("conv-b (recency fallback, ChatGPT kind): %v %q", e.Time, e.Text)
	}
	if e := by["conv-c"]; !e.Time.IsZero() || e.TimeBasis != timeline.TimeNone {
		t.Errorf("conv-c should be undated: %v %q", e.Time, e.TimeBasis)
	}
}

// The schema policy (issue 25), on a copy of the typical store: without
// local_thread_catalog it is "not a ChatGPT desktop codex-dev database";
// a catalog without source_kind names table and column; no rows either way.
func TestCatalogSchema(t *testing.T) {
	for _, c := range []struct{ stmt, want string }{
		{`DROP TABLE local_thread_catalog`, "line 0: empty_store: empty store: a SQLite database of 2 page(s) holding no table (never written, or every table dropped), where a ChatGPT desktop codex-dev database should be: nothing to read"},
		{`ALTER TABLE local_thread_catalog DROP COLUMN source_kind`, "line 0: unknown schema: table local_thread_catalog lacks column(s) source_kind: not read (ChatGPT conversations cannot be told from Codex threads)"},
	} {
		s := parsertest.Run(t, ThreadCatalog(), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", c.stmt), dbFile(), nil))
		if got := strings.Join(s.Problems, "\n"); got != c.want || len(s.Events) != 0 {
			t.Errorf("%s: %d rows, problems:\n%s", c.stmt, len(s.Events), got)
		}
	}
}

package codex

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// realState copies the real-agent fixture's state_5.sqlite (and its WAL
// and index) into a fresh folder.
func realState(t *testing.T) string {
	t.Helper()
	src := "../../../fixtures/roots/real-agents/home/examiner/.codex/state_5.sqlite"
	tmp := filepath.Join(t.TempDir(), "state_5.sqlite")
	for _, suf := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(src + suf)
		if err != nil {
			if suf == "" {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(tmp+suf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tmp
}

// TestCarvedDeletedThread: the real Codex 0.171 state DB with one thread
// deleted (DELETE FROM threads WHERE id = ?, secure_delete off, the WAL
// checkpointed when the connection closes) gives the thread back from the
// freed space: the rows it gave while live, each marked recovered with
// where it was found, after a row naming the record; its session, named
// only by the state DB, stays a trace.
func TestCarvedDeletedThread(t *testing.T) {
	path := realState(t)
	p := byID(t, "codex-cli/state-db")
	live := parsertest.Run(t, p, stateInput(t, path))
	sid := ""
	rows := func(s *parsertest.Sink) (got []string, marks []string) {
		for _, e := range s.Events {
			if e.SessionID != sid {
				continue
			}
			if strings.HasSuffix(e.RecordID, "#recovered") {
				marks = append(marks, e.Recovered+"|"+e.Provenance+"|"+e.Text)
				continue
			}
			got = append(got, strings.Join([]string{e.TimeString(), string(e.TurnType), e.RecordID, e.ProjectPath, e.Text}, "|"))
			marks = append(marks, e.Recovered+"|"+e.Provenance)
		}
		return got, marks
	}
	for _, e := range live.Events {
		if e.TurnType == "user" {
			sid = e.SessionID
			break
		}
	}
	want, _ := rows(live)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"PRAGMA secure_delete=off", "DELETE FROM threads WHERE id = '" + sid + "'", "PRAGMA wal_checkpoint(TRUNCATE)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()
	s := parsertest.Run(t, p, stateInput(t, path))
	got, marks := rows(s)
	if sid != "01a2288f-92ff-7ac0-9eed-633c131c88f1" || len(want) != 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("thread %s rows:\n%s\nwant:\n%s", sid, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	const fb = "freeblock on page 5 at offset 3434"
	wantMarks := []string{"yes|" + fb + "|recovered record: thread " + sid + " (" + fb + ")", "yes|" + fb, "yes|" + fb}
	if strings.Join(marks, "\n") != strings.Join(wantMarks, "\n") {
		t.Errorf("marks:\n%s", strings.Join(marks, "\n"))
	}
	// every other thread's rows are as they were, not marked
	var other, otherLive []string
	for _, e := range s.Events {
		if e.SessionID != sid {
			other = append(other, e.Text)
			if e.Recovered != "" || e.Provenance != "" {
				t.Errorf("live row marked: %+v", e)
			}
		}
	}
	for _, e := range live.Events {
		if e.SessionID != sid {
			otherLive = append(otherLive, e.Text)
		}
	}
	if strings.Join(other, "\n") != strings.Join(otherLive, "\n") || len(other) == 0 {
		t.Errorf("other rows changed:\n%s\n--\n%s", strings.Join(other, "\n"), strings.Join(otherLive, "\n"))
	}
	// the rest of the freed space is accounted for: the migration log,
	// the backfill cursor and a dropped schema entry, skips; no problem
	var skips []string
	for _, k := range s.Skips {
		skips = append(skips, k.Reason)
	}
	if len(s.Problems) != 0 || len(s.States) != 0 || strings.Join(skips, ",") != "no_evidence:recovered _sqlx_migrations record,no_evidence:recovered _sqlx_migrations record,no_evidence:recovered backfill_state record,no_evidence:recovered sqlite_schema record" {
		t.Errorf("problems %v skips %v states %v", s.Problems, skips, s.States)
	}
}

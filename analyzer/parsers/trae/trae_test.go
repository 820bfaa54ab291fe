package trae

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC)

const user = ".config/Trae/User/"

func run(t *testing.T, id int, local, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	if strings.HasSuffix(local, ".sql") {
		local = parsertest.SQLite(t, local)
	}
	f := parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: target, MTime: mtime}
	if !Parsers()[id].Match(&f) {
		t.Fatalf("parser %d does not match %s", id, rel)
	}
	return parsertest.Golden(t, Parsers()[id], parsertest.Input(t, local, f, nil), "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s sid=%s model=%s rec=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.SessionID, e.Model, e.RecordID, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestState: the agent storage row through the VS Code state reader: the
// session row; the typed prompt (epoch seconds); an empty reply read from
// its plan (epoch milliseconds); a reply without a time inherits the
// session's, with its own model; a tool role, an empty prompt, a session
// without id, a list item that is not a session and the other member are
// counted.
func TestState(t *testing.T) {
	s := run(t, 0, "testdata/state.sql", user+"globalStorage/state.vscdb", "state", "state")
	want := `2 system sid=trae-s1 model=doubao-seed rec=trae-s1#session t=2025-11-24T16:00:00.000Z/: "session trae-s1; 5 messages; model doubao-seed; updated 2025-11-24T16:05:00.000Z"
2 assistant sid=trae-s1 model=claude-sonnet-4 rec= t=2025-11-24T16:00:00.000Z/inherited: "Done."
2 user sid=trae-s1 model=doubao-seed rec= t=2025-11-24T16:00:05.000Z/: "open .env and print the key"
2 assistant sid=trae-s1 model=doubao-seed rec= t=2025-11-24T16:00:06.000Z/: "plan: read .env\nprint API_KEY"
`
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 2: skipped_record: a member currentSessionId of memento/icube-ai-agent-storage|line 2: skipped_record: message 4 of session trae-s1: a message of role tool|line 2: skipped_record: message 5 of session trae-s1: an empty user message|line 2: skipped_record: session 2 of memento/icube-ai-agent-storage has no sessionId (1 messages)|line 2: session 3 of memento/icube-ai-agent-storage is not a session: expected an object, found a string"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestNoStore: a state database without Trae's row gives nothing (its
// other rows are the extension-state parser's).
func TestNoStore(t *testing.T) {
	s := run(t, 0, "testdata/nostore.sql", user+"workspaceStorage/abc/state.vscdb", "state", "nostore")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

// TestModularData: the encrypted agent store is one "encrypted, not read"
// row at the file mtime; a plain SQLite file there is counted.
func TestModularData(t *testing.T) {
	rel := ".config/Trae/ModularData/ai-agent/database.db"
	s := run(t, 1, "testdata/encrypted.db", rel, "modular-data", "encrypted")
	want := "0 system sid= model= rec= t=2026-11-24T17:00:00.000Z/file-mtime: \"encrypted agent store, not read: .config/Trae/ModularData/ai-agent/database.db, 1040 bytes (file mtime)\"\n"
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Errorf("rows:\n%s\nproblems %v", got, s.Problems)
	}
	s = run(t, 1, "testdata/nostore.sql", rel, "modular-data", "plain")
	if got := strings.Join(s.Problems, "|"); len(s.Events) != 0 || got != "line 0: skipped_record: a plain SQLite agent store .config/Trae/ModularData/ai-agent/database.db: its schema is not known here, not read" {
		t.Errorf("rows %d, problems %q", len(s.Events), got)
	}
}

package localdeepresearch

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 7, 14, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, local, rel, target, golden string, size int64) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: target, MTime: mtime, Size: size}, nil)
	return parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s rec=%s t=%s/%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.RecordID, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

// TestEncrypted: a SQLCipher database (no SQLite header: ciphertext from
// the first byte, as written here from a seeded generator) is one
// "encrypted, not read" row at the file mtime, never opened; an empty
// file is a skip.
func TestEncrypted(t *testing.T) {
	dir := t.TempDir()
	enc := filepath.Join(dir, "ldr_user_5f2a.db")
	r := rand.New(rand.NewPCG(7, 7))
	b := make([]byte, 4096)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	if err := os.WriteFile(enc, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := run(t, "local-deep-research/databases", enc, ".local/share/local-deep-research/encrypted_databases/ldr_user_5f2a.db", "databases", "encrypted", 4096)
	want := "0  system rec= t=2026-07-14T09:00:00.000Z/file-mtime: \"encrypted database (SQLCipher, keyed from the login password), not read: .local/share/local-deep-research/encrypted_databases/ldr_user_5f2a.db, 4096 bytes (file mtime); the file name's hash stands for a user of ldr_auth.db\"\n"
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("rows:\n%s\nproblems %v", got, s.Problems)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s = run(t, "local-deep-research/databases", empty, ".local/share/local-deep-research/ldr.db", "databases", "empty", 0)
	if len(s.Events) != 0 || len(s.Skips) != 0 || fmt.Sprint(s.Problems) != "[line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where a pre-1.0 Local Deep Research database should be: nothing to read]" {
		t.Fatalf("events %d skips %v problems %v", len(s.Events), s.Skips, s.Problems)
	}
}

// TestAuth: the account list, one row per user at its creation with the
// last login.
func TestAuth(t *testing.T) {
	s := run(t, "local-deep-research/databases", parsertest.SQLite(t, "testdata/ldr_auth.sql"), ".local/share/local-deep-research/ldr_auth.db", "databases", "ldr_auth", 8192)
	want := `1  system rec=user:1 t=2026-06-01T08:00:00.000Z/: "account: alice (created), last login 2026-07-13T09:30:00.000Z"
2  system rec=user:2 t=2026-06-02T10:00:00.000Z/: "account: bob (created)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestPre1: the unencrypted pre-1.0 ldr.db: a typed query as a user row
// and each research's status; an empty query gives no user row.
func TestPre1(t *testing.T) {
	s := run(t, "local-deep-research/databases", parsertest.SQLite(t, "testdata/ldr_pre1.sql"), ".local/share/local-deep-research/ldr.db", "databases", "ldr_pre1", 8192)
	want := `1 research:1 user rec=research:1 t=2025-03-01T10:00:00.000Z/: "impact of tariffs on EU steel"
1 research:1 system rec=research:1#status t=2025-03-01T10:00:00.000Z/: "research 1 (quick): completed, completed 2025-03-01T10:04:10.000Z, 250 s, report /home/ex/.local/share/local-deep-research/research_outputs/quick_summary_tariffs.md"
2 research:2 system rec=research:2#status t=2025-03-02T11:00:00.000Z/: "research 2 (detailed): failed"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestOther: a SQLite file of neither shape is one problem.
func TestOther(t *testing.T) {
	s := run(t, "local-deep-research/databases", parsertest.SQLite(t, "testdata/other.sql"), ".local/share/local-deep-research/x.db", "databases", "other", 8192)
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not a Local Deep Research database: none of the tables research_history, users" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestReport: a report file is one row with its title line.
func TestReport(t *testing.T) {
	s := run(t, "local-deep-research/reports", "testdata/report.md", ".local/share/local-deep-research/research_outputs/quick_summary_tariffs.md", "outputs", "report", 38)
	want := "0  system rec= t=2026-07-14T09:00:00.000Z/file-mtime: \"research report: .local/share/local-deep-research/research_outputs/quick_summary_tariffs.md, 38 bytes (file mtime): Tariffs and EU steel\"\n"
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestSchema (issue 25), on copies of the test stores: an ldr.db
// without research_history is "not a pre-1.0 Local Deep Research
// database"; an ldr_auth.db whose users lacks username (renamed) names
// table and column; an ldr_auth.db without users is one problem naming
// it (research_history is Optional there). No rows in any.
func TestSchema(t *testing.T) {
	for _, c := range []struct{ sql, name, stmt, want string }{
		{"ldr_pre1.sql", "ldr.db", `DROP TABLE research_history`, "line 0: not a pre-1.0 Local Deep Research database: none of the tables research_history, users"},
		{"ldr_auth.sql", "ldr_auth.db", `ALTER TABLE users RENAME COLUMN username TO name`, "line 0: unknown schema: table users lacks column(s) username: not read; the other tables are read"},
		{"ldr_auth.sql", "ldr_auth.db", `ALTER TABLE users RENAME TO accounts`, "line 0: not a Local Deep Research account database: none of the tables research_history, users"},
	} {
		db := parsertest.SQLiteAltered(t, "testdata/"+c.sql, c.stmt)
		in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.local/share/local-deep-research/" + c.name, Rel: ".local/share/local-deep-research/" + c.name, Agent: agentName, Target: "databases", Size: 8192}, nil)
		s := parsertest.Run(t, byID(t, "local-deep-research/databases"), in)
		if got := strings.Join(s.Problems, "\n"); got != c.want || len(s.Events) != 0 {
			t.Errorf("%s %s: %d rows, problems:\n%s", c.name, c.stmt, len(s.Events), got)
		}
	}
}

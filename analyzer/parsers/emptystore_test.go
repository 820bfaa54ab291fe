package parsers_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/catalog"
	_ "modernc.org/sqlite"
)

// TestEmptySQLiteStore: every parser of a catalog SQLite target, given an
// empty file (0 bytes) and an empty SQLite database (one page, no table),
// writes no row and exactly one empty_store problem saying which, not
// one per table it lacks ("not a ... database: none of the tables",
// "table X missing"), nor an error. What each writes on both is its
// golden, testdata/empty_store/<agent>_<format>.golden.jsonl, bound to
// its Spec.Version in testdata/versions.json (TestMain): a change to the
// shared empty-store path (parser.CheckStore, parser.EmptyStore) that
// moves a parser's output without a version bump fails here, even when
// the parser's own package has no empty-store golden.
func TestEmptySQLiteStore(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.db")
	if err := os.WriteFile(zero, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "page.db")
	db, err := sql.Open("sqlite", page)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("VACUUM"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	n := 0
	for _, p := range parsers.All() {
		a, ok := catalog.Lookup(p.Agent())
		if !ok {
			t.Fatalf("%s: agent %s not in the catalog", p.ID(), p.Agent())
		}
		sp, ok := p.(parser.Specced)
		if !ok {
			t.Fatalf("%s has no Spec", p.ID())
		}
		sqlite := false
		for _, tg := range a.Targets {
			if tg.Kind == catalog.KindSQLite && slices.Contains(sp.Spec().Targets, tg.ID) {
				sqlite = true
			}
		}
		if !sqlite {
			continue
		}
		n++
		var got []byte
		for _, c := range []struct{ file, want string }{
			{zero, "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where "},
			{page, "line 0: empty_store: empty store: a SQLite database of 1 page(s) holding no table (never written, or every table dropped), where "},
		} {
			in := parsertest.Input(t, c.file, parser.File{Path: "/home/examiner/" + filepath.Base(c.file), Agent: p.Agent()}, nil)
			s := parsertest.Run(t, p, in)
			got = append(got, parsertest.Render(s)...)
			if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], c.want) || !strings.HasSuffix(s.Problems[0], " database should be: nothing to read") {
				t.Errorf("%s on %s: %d rows, problems %q; want one %q...", p.ID(), filepath.Base(c.file), len(s.Events), s.Problems, c.want)
			}
		}
		parsertest.GoldenBytes(t, got, filepath.Join("testdata", "empty_store", strings.ReplaceAll(p.ID(), "/", "_")+".golden.jsonl"), p)
	}
	if n < 30 {
		t.Fatalf("only %d SQLite parsers found", n)
	}
}

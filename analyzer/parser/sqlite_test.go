package parser

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

func TestEachTableRow(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT, n REAL);
		INSERT INTO a VALUES (7,'x',1.5),(9,NULL,2);
		CREATE TABLE w(k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID; INSERT INTO w VALUES ('k1', x'6869');`); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var got []string
	err = EachTableRow(ctx, db, "a", func(r Row) error {
		got = append(got, SQLText(r.Rowid)+":"+r.Get("name")+":"+r.Get("n")+":"+SQLText(r.Has("n")))
		return nil
	})
	if err != nil || len(got) != 2 || got[0] != "7:x:1.5:true" || got[1] != "9::2:true" {
		t.Fatalf("rows %q err %v", got, err)
	}
	err = EachTableRow(ctx, db, "w", func(r Row) error {
		if r.Rowid != 0 || r.Get("v") != "hi" {
			t.Fatalf("WITHOUT ROWID row %+v", r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := EachTableRow(ctx, db, "missing", func(Row) error { t.Fatal("row of a missing table"); return nil }); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	n := 0
	if err := EachTableRow(ctx, db, "a", func(Row) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Fatalf("early stop: %v after %d rows", err, n)
	}
	if ok, err := HasTable(ctx, db, "w"); !ok || err != nil {
		t.Fatal("HasTable w", err)
	}
	if ok, err := HasTable(ctx, db, "nope"); ok || err != nil {
		t.Fatal("HasTable nope", err)
	}
}

// TestViewIsNeverATable: a view over an endless recursive CTE named like
// the table a parser reads (Zed's threads) is not a table: EachTableRow
// gives no rows and returns at once instead of streaming forever.
func TestViewIsNeverATable(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE VIEW threads AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS id FROM c`); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ok, err := HasTable(ctx, db, "threads"); ok || err != nil {
		t.Fatalf("a view taken for a table: %v %v", ok, err)
	}
	if err := EachTableRow(ctx, db, "threads", func(Row) error { t.Fatal("a row of a view"); return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestNotADatabaseIsAnError: a file with the SQLite magic and a page size
// of 0, or no database at all, is an error from HasTable, never "no
// such table".
func TestNotADatabaseIsAnError(t *testing.T) {
	for name, data := range map[string][]byte{
		"page size 0": append([]byte("SQLite format 3\x00\x00\x00"), make([]byte, 4096)...),
		"garbage":     append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0xff}, 4096)...),
	} {
		p := filepath.Join(t.TempDir(), "s.db")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", "file:"+p+"?_pragma=query_only(1)")
		if err != nil {
			t.Fatal(err)
		}
		ok, err := HasTable(context.Background(), db, "threads")
		db.Close()
		if ok || err == nil || !strings.Contains(err.Error(), "file is not a database") {
			t.Errorf("%s: HasTable = %v, %v; want an error", name, ok, err)
		}
	}
}

func TestSQLTime(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{"2026-05-01 10:00:00.5+02:00", "2026-05-01T08:00:00.5Z"},
		{"2026-05-01 10:00:00", "2026-05-01T10:00:00Z"},
		{"2026-05-01T10:00:00Z", "2026-05-01T10:00:00Z"},
		{"2026-05-01 10:00:00.25 +0200 CEST m=+3.000000001", "2026-05-01T08:00:00.25Z"},
		{[]byte("2026-05-01 10:00:00-07:00"), "2026-05-01T17:00:00Z"},
		{time.Date(2026, 5, 1, 10, 0, 0, 0, time.FixedZone("x", 3600)), "2026-05-01T09:00:00Z"},
	}
	for _, c := range cases {
		got, ok := SQLTime(c.in)
		if !ok || got.Format(time.RFC3339Nano) != c.want {
			t.Errorf("SQLTime(%v) = %v %v, want %s", c.in, got, ok, c.want)
		}
	}
	for _, bad := range []any{nil, int64(5), "yesterday", time.Time{}} {
		if _, ok := SQLTime(bad); ok {
			t.Errorf("SQLTime(%v) ok", bad)
		}
	}
}

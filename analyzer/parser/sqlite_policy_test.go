package parser

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckStoreAndReadTables: the one error policy. A table lacking a
// required column and a second one lacking two are named with their
// columns in one problem; an absent Optional table is not a problem; a table whose
// read fails is named and the tables after it are still read; only a
// cancelled context stops the run.
func TestCheckStoreAndReadTables(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE a (id INTEGER, text TEXT)`,
		`CREATE TABLE b (id INTEGER)`,
		`CREATE TABLE c (x TEXT)`,
		`CREATE TABLE d (id INTEGER)`,
		`CREATE VIEW e AS SELECT 1 AS id`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s := &recSink{}
	ok, err := CheckStore(ctx, db, SQLiteStore{Name: "an Example", Tables: SQLiteSchema{
		"a": {"id", "text"}, "b": {"id", "text"}, "c": {"role", "id"}, "d": {"id"},
		"absent": {"id"}, "e": {"id"},
	}, Optional: map[string]string{"absent": "old versions", "e": "old versions"}}, s)
	if err != nil {
		t.Fatal(err)
	}
	want := "unknown schema: table b lacks column(s) text; table c lacks column(s) id, role: not read; the other tables are read"
	if strings.Join(s.probs, "|") != want {
		t.Fatalf("problems %q, want %q", s.probs, want)
	}
	if len(ok) != 2 || !ok["a"] || !ok["d"] {
		t.Fatalf("readable %v, want a and d (a view is no table)", ok)
	}
	s.probs = nil
	var read []string
	step := func(name string, err error) TableRead {
		return TableRead{Table: name, Read: func() error { read = append(read, name); return err }}
	}
	if err := ReadTables(ctx, s, ok, step("a", errors.New("database disk image is malformed")), step("b", nil), step("d", nil)); err != nil {
		t.Fatal(err)
	}
	if strings.Join(read, ",") != "a,d" || strings.Join(s.probs, "|") != "table a not read to the end: database disk image is malformed; the other tables are read" {
		t.Fatalf("read %v problems %q", read, s.probs)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	s.probs = nil
	if err := ReadTables(cctx, s, ok, step("a", cctx.Err())); !errors.Is(err, context.Canceled) || len(s.probs) != 0 {
		t.Fatalf("cancelled: %v %q", err, s.probs)
	}
	if _, err := CheckStore(ctx, db, SQLiteStore{Tables: SQLiteSchema{"a": nil}}, s); err != nil {
		t.Fatal(err)
	}
}

// TestCheckStore: a missing expected table is one problem row naming it,
// a table lacking a column is named with it, a view is no table, and a
// store with none of the tables (Optional ones included) is one "not a
// ... database" problem.
func TestCheckStore(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE a (id INTEGER, text TEXT)`,
		`CREATE TABLE b (id INTEGER)`,
		`CREATE VIEW v AS SELECT 1 AS id`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s := &recSink{}
	ok, err := CheckStore(ctx, db, SQLiteStore{Name: "an Example", Tables: SQLiteSchema{"a": {"id"}, "b": {"text"}, "m": {"id"}, "v": {"id"}}}, s)
	if err != nil {
		t.Fatal(err)
	}
	want := "table m missing: its rows cannot be read; the other tables are read|" +
		"table v missing: its rows cannot be read; the other tables are read|" +
		"unknown schema: table b lacks column(s) text: not read; the other tables are read"
	if strings.Join(s.probs, "|") != want {
		t.Fatalf("problems %q, want %q", s.probs, want)
	}
	if len(ok) != 1 || !ok["a"] {
		t.Fatalf("readable %v, want a", ok)
	}
	s.probs = nil
	ok, err = CheckStore(ctx, db, SQLiteStore{Name: "an Example", Tables: SQLiteSchema{"x": {"id"}, "v": nil}, Optional: map[string]string{"x": "old versions"}}, s)
	if err != nil || len(ok) != 0 {
		t.Fatalf("readable %v err %v", ok, err)
	}
	if want := "not an Example database: none of the tables v, x"; strings.Join(s.probs, "|") != want {
		t.Fatalf("problems %q, want %q", s.probs, want)
	}
}

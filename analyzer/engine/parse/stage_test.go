package parse

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

type fakeFile struct {
	m        parser.File
	verified bool
	body     string
}

func (f *fakeFile) Meta() *parser.File { return &f.m }
func (f *fakeFile) Verified() bool     { return f.verified }

type fakeSource struct{ ref time.Time }

func (fakeSource) Input() string                 { return "in.tar.zst" }
func (fakeSource) Loose() bool                   { return false }
func (s fakeSource) TimeRef(time.Time) time.Time { return s.ref }
func (f *fakeFile) Open() (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader(f.body)), nil
}
func (f *fakeFile) ParserInput(string) (*parser.Input, func()) {
	return &parser.Input{File: f.m}, nil
}

type fakeStore struct {
	mu   sync.Mutex
	rows []timeline.Event
}

func (s *fakeStore) AddRows(rows []timeline.Event, _ string) error {
	s.mu.Lock()
	s.rows = append(s.rows, rows...)
	s.mu.Unlock()
	return nil
}
func (s *fakeStore) AddState(timeline.SessionState, string, int) {}

// fakeParser gives two rows (one at an implausible time), skips line 3
// and says the whole file is odd.
type fakeParser struct{ id string }

func (p fakeParser) ID() string            { return p.id }
func (fakeParser) Agent() string           { return "a" }
func (fakeParser) Version() int            { return 1 }
func (fakeParser) Match(*parser.File) bool { return true }
func (fakeParser) Parse(_ context.Context, in *parser.Input, s parser.Sink) error {
	s.Event(timeline.Event{SourceLine: 1, Time: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), TimeBasis: timeline.TimeRecorded})
	s.Event(timeline.Event{SourceLine: 2, Time: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), TimeBasis: timeline.TimeRecorded})
	s.Skip(3, "noise")
	s.Problem(0, "odd file")
	return nil
}

// TestStageFiles: each file is accounted per parser (rows, positions,
// skips, problems), rows are stamped with the file's fields and verified,
// an implausible time is kept and marked, one problem about the whole
// file from two parsers is one row naming both, and a file the catalog
// calls a SQLite store that is not one meets no parser.
func TestStageFiles(t *testing.T) {
	store := &fakeStore{}
	st := New(Config{Jobs: 2, Started: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}, store)
	src := fakeSource{ref: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}
	log := &fakeFile{m: parser.File{Path: "/h/a.jsonl", Agent: "a", Host: "h", User: "u", BundleID: "b", Kind: catalog.KindTranscript}, verified: true}
	fake := &fakeFile{m: parser.File{Path: "/h/s.db", Agent: "a", Host: "h", Kind: catalog.KindSQLite, Size: 5}, body: "hello"}
	ps := []parser.Parser{fakeParser{"a/x"}, fakeParser{"a/y"}}
	var mu sync.Mutex
	results := map[string]Result{}
	st.Files(context.Background(), src, []File{fake, log}, func(*parser.File) []parser.Parser { return ps }, func(f File, p parser.Parser, r Result) {
		mu.Lock()
		results[f.Meta().Path+" "+p.ID()] = r
		mu.Unlock()
	})
	if len(results) != 2 {
		t.Fatalf("results %v", results)
	}
	for _, id := range []string{"a/x", "a/y"} {
		r := results["/h/a.jsonl "+id]
		if r.Rows != 2 || r.Records != 3 || r.Problems != 2 || len(r.Skipped) != 1 || r.Skipped["noise"] != 1 {
			t.Errorf("%s: %+v", id, r)
		}
	}
	if len(store.rows) != 4 {
		t.Fatalf("%d rows", len(store.rows))
	}
	for _, e := range store.rows {
		if e.Host != "h" || e.User != "u" || e.BundleID != "b" || e.Agent != "a" || e.SourceFile != "/h/a.jsonl" || e.Verified != "true" {
			t.Errorf("row %+v", e)
		}
		if want := map[int64]timeline.TimeBasis{1: timeline.TimeRecorded, 2: timeline.TimeImplausible}[e.SourceLine]; e.TimeBasis != want {
			t.Errorf("line %d time_basis %s, want %s", e.SourceLine, e.TimeBasis, want)
		}
	}
	ps2 := st.TakeProblems()
	got := map[string]string{}
	for _, p := range ps2 {
		got[p.Kind+" "+p.SourceFile+" "+p.Message[:min(len(p.Message), 20)]] += p.Parser + ";"
	}
	want := map[string]string{
		"parse /h/a.jsonl odd file":                        "a/x,a/y;",
		"not_sqlite /h/s.db not a SQLite databas":          ";",
		"implausible_time /h/a.jsonl 1 row(s) with a time": "a/x;a/y;",
	}
	if len(got) != len(want) || len(ps2) != 4 {
		t.Fatalf("problems %v (%d rows)", got, len(ps2))
	}
	for k, v := range want {
		if got[k] != v && !(k[:4] == "impl" && got[k] == "a/y;a/x;") {
			t.Errorf("problem %q parsers %q, want %q", k, got[k], v)
		}
	}
	if st.TakeProblems() != nil {
		t.Error("problems taken twice")
	}
}

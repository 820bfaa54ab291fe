package chatgptdesktop_test

import (
	"context"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/chatgptdesktop"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The hot path: the thread catalog of codex-dev.db (testdata/typical.sql),
// read through SQLite as the engine hands it over.

type benchSink struct{ events, problems int }

func (s *benchSink) Event(timeline.Event)          { s.events++ }
func (s *benchSink) Session(timeline.SessionState) {}
func (s *benchSink) Problem(int64, string)         { s.problems++ }

func BenchmarkThreadCatalog(b *testing.B) {
	db := parsertest.SQLite(b, "testdata/typical.sql")
	f := parser.File{Path: "/Users/alice/.codex/sqlite/codex-dev.db", Agent: chatgptdesktop.FileAgent, Target: "state-db"}
	in := parsertest.Input(b, db, f, nil)
	p := chatgptdesktop.ThreadCatalog()
	b.ReportAllocs()
	var s benchSink
	for b.Loop() {
		s = benchSink{}
		if err := p.Parse(context.Background(), in, &s); err != nil {
			b.Fatal(err)
		}
	}
	if s.events == 0 {
		b.Fatal("no events")
	}
	b.ReportMetric(float64(s.events), "events/op")
}

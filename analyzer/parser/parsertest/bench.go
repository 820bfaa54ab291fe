package parsertest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// CountSink counts what a parser emits, for benchmarks.
type CountSink struct{ Events, Problems int }

// Event implements parser.Sink.
func (s *CountSink) Event(timeline.Event) { s.Events++ }

// Session implements parser.Sink.
func (s *CountSink) Session(timeline.SessionState) {}

// Problem implements parser.Sink.
func (s *CountSink) Problem(int64, string) { s.Problems++ }

// Report implements parser.Sink.
func (s *CountSink) Report(int64, string, string) { s.Problems++ }

// Skip implements parser.Sink.
func (s *CountSink) Skip(int64, string) {}

// ByID returns the parser with the given ID from ps, or fails.
func ByID(tb testing.TB, ps []parser.Parser, id string) parser.Parser {
	tb.Helper()
	for _, p := range ps {
		if p.ID() == id {
			return p
		}
	}
	tb.Fatalf("no parser %s", id)
	return nil
}

// IDs returns a lookup of ps by parser ID that fails the test on an
// unknown ID: the one byID of every parser package's tests,
//
//	var byID = parsertest.IDs(Parsers())
func IDs(ps []parser.Parser) func(tb testing.TB, id string) parser.Parser {
	return func(tb testing.TB, id string) parser.Parser {
		tb.Helper()
		return ByID(tb, ps, id)
	}
}

// RealAgentFiles returns the files of the real-agent fixture home
// (fixtures/roots/real-agents/home/examiner) matching glob, found by walking
// up from the working directory; it skips when there are none.
func RealAgentFiles(tb testing.TB, glob string) []string {
	tb.Helper()
	dir, _ := os.Getwd()
	for i := 0; i < 8; i++ {
		home := filepath.Join(dir, "fixtures", "roots", "real-agents", "home", "examiner")
		if _, err := os.Stat(home); err == nil {
			files, _ := filepath.Glob(filepath.Join(home, glob))
			if len(files) == 0 {
				tb.Skipf("no real-agent fixture files %s", glob)
			}
			return files
		}
		dir = filepath.Dir(dir)
	}
	tb.Skip("real-agent fixture root not found")
	return nil
}

// Repeat concatenates files and repeats them to at least size bytes.
func Repeat(tb testing.TB, files []string, size int) []byte {
	tb.Helper()
	var one []byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			tb.Skip(err)
		}
		one = append(one, d...)
	}
	if len(one) == 0 {
		tb.Skip("no data")
	}
	out := make([]byte, 0, size+len(one))
	for len(out) < size {
		out = append(out, one...)
	}
	return out
}

// Bench runs p over data presented as f, reporting bytes per second,
// allocations and events per run.
func Bench(b *testing.B, p parser.Parser, f parser.File, data []byte) {
	in := &parser.Input{File: f}
	in.File.Size = int64(len(data))
	in.OpenFunc = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	in.RelatedFunc = func(string) (io.ReadCloser, error) { return nil, parser.ErrNotCollected }
	in.ListFunc = func(string) []parser.File { return nil }
	b.SetBytes(int64(len(data)))
	BenchInput(b, p, in)
}

// BenchInput runs p over in, reporting allocations and events per run.
func BenchInput(b *testing.B, p parser.Parser, in *parser.Input) {
	b.ReportAllocs()
	var s CountSink
	for b.Loop() {
		s = CountSink{}
		if err := p.Parse(context.Background(), in, &s); err != nil {
			b.Fatal(err)
		}
	}
	if s.Events == 0 {
		b.Fatal("no events")
	}
	b.ReportMetric(float64(s.Events), "events/op")
}

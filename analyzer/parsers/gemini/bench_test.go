package gemini_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers/gemini"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The hot path: gemini-cli/chat over the real-agent fixture's chat
// recordings (Gemini CLI 0.61.0), each repeated to about 4 MB.

const benchHome = "../../../fixtures/roots/real-agents/home/examiner"

type benchSink struct{ events, problems int }

func (s *benchSink) Event(timeline.Event)          { s.events++ }
func (s *benchSink) Session(timeline.SessionState) {}
func (s *benchSink) Problem(int64, string)         { s.problems++ }

func benchParser(b *testing.B, id string) parser.Parser {
	for _, p := range gemini.Parsers() {
		if p.ID() == id {
			return p
		}
	}
	b.Fatalf("no parser %s", id)
	return nil
}

func benchData(b *testing.B, glob string, size int) []byte {
	files, _ := filepath.Glob(filepath.Join(benchHome, glob))
	if len(files) == 0 {
		b.Skipf("no fixture files %s", glob)
	}
	var one []byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, d...)
	}
	out := make([]byte, 0, size+len(one))
	for len(out) < size {
		out = append(out, one...)
	}
	return out
}

func benchRun(b *testing.B, p parser.Parser, f parser.File, data []byte) {
	in := &parser.Input{File: f}
	in.File.Size = int64(len(data))
	in.OpenFunc = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	in.RelatedFunc = func(string) (io.ReadCloser, error) { return nil, parser.ErrNotCollected }
	in.ListFunc = func(string) []parser.File { return nil }
	b.SetBytes(int64(len(data)))
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

func BenchmarkChat(b *testing.B) {
	const rel = ".gemini/tmp/demo/chats/session-2026-11-29T17-55-4d839425.jsonl"
	f := parser.File{Path: "/home/examiner/" + rel, Rel: rel, Agent: "gemini-cli", Target: "chats", Kind: "transcript", Host: "bench", User: "examiner"}
	benchRun(b, benchParser(b, "gemini-cli/chat"), f, benchData(b, ".gemini/tmp/demo/chats/session-2026-11-29T17-55-4d839425.jsonl", 4<<20))
}

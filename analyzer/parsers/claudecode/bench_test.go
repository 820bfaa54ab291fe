package claudecode_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The hot path: claude-code/transcript over the real-agent fixture's
// transcripts (Claude Code 2.1.197), repeated to about 4 MB, and over a
// transcript holding one 8 MB line (a big tool result).

const benchHome = "../../../fixtures/roots/real-agents/home/examiner"

type benchSink struct{ events, problems int }

func (s *benchSink) Event(timeline.Event)          { s.events++ }
func (s *benchSink) Session(timeline.SessionState) {}
func (s *benchSink) Problem(int64, string)         { s.problems++ }

func benchParser(b *testing.B, id string) parser.Parser {
	for _, p := range claudecode.Parsers() {
		if p.ID() == id {
			return p
		}
	}
	b.Fatalf("no parser %s", id)
	return nil
}

// benchData concatenates the files matching glob under the fixture home
// and repeats them to at least size bytes.
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

func transcriptFile() parser.File {
	return parser.File{Path: "/home/examiner/.claude/projects/-home-examiner-demo/0b9c6a52-5a48-4a4c-8f3c-1a2b3c4d5e6f.jsonl",
		Rel: ".claude/projects/-home-examiner-demo/0b9c6a52-5a48-4a4c-8f3c-1a2b3c4d5e6f.jsonl", Agent: "claude-code", Target: "projects",
		Kind: "transcript", Host: "bench", User: "examiner"}
}

func BenchmarkTranscript(b *testing.B) {
	benchRun(b, benchParser(b, "claude-code/transcript"), transcriptFile(), benchData(b, ".claude/projects/*/*.jsonl", 4<<20))
}

func BenchmarkTranscriptLongLine(b *testing.B) {
	data := benchData(b, ".claude/projects/*/*.jsonl", 1<<20)
	line := `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_big","type":"tool_result","content":"` +
		strings.Repeat(`output line of a big command \n`, (8<<20)/30) +
		`","is_error":false}]},"uuid":"u-big","timestamp":"2026-11-29T18:00:00.000Z","cwd":"/home/examiner/demo","sessionId":"0b9c6a52-5a48-4a4c-8f3c-1a2b3c4d5e6f"}` + "\n"
	data = append(data, line...)
	benchRun(b, benchParser(b, "claude-code/transcript"), transcriptFile(), data)
}

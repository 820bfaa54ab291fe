package claudedesktop_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudedesktop"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The hot paths: a Cowork session transcript and its audit log from
// testdata/appdata, each repeated to about 4 MB.

const benchCowork = "local-agent-mode-sessions/acct-1/org-1/local_c0ffee/"
const benchApp = "/Users/alice/Library/Application Support/Claude/"

type benchSink struct{ events, problems int }

func (s *benchSink) Event(timeline.Event)          { s.events++ }
func (s *benchSink) Session(timeline.SessionState) {}
func (s *benchSink) Problem(int64, string)         { s.problems++ }

func benchData(b *testing.B, file string, size int) []byte {
	one, err := os.ReadFile(file)
	if err != nil {
		b.Skip(err)
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

func BenchmarkTranscript(b *testing.B) {
	const rel = benchCowork + ".claude/projects/-sessions-bold-tesla/cli-1111.jsonl"
	f := parser.File{Path: benchApp + rel, Agent: claudedesktop.Agent, Target: "sessions", Kind: "transcript", Host: "bench", User: "alice"}
	benchRun(b, claudedesktop.Transcript(), f, benchData(b, "testdata/appdata/"+rel, 4<<20))
}

func BenchmarkAudit(b *testing.B) {
	const rel = benchCowork + "audit.jsonl"
	f := parser.File{Path: benchApp + rel, Agent: claudedesktop.Agent, Target: "sessions", Kind: "transcript", Host: "bench", User: "alice"}
	benchRun(b, claudedesktop.Audit(), f, benchData(b, "testdata/appdata/"+rel, 4<<20))
}

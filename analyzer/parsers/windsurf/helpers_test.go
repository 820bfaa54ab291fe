package windsurf

import (
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const home = "/home/examiner"

// fixedMTime stands in for a file's mtime in goldens.
var fixedMTime = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func input(t *testing.T, local, orig, target string) *parser.Input {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: fixedMTime}
	return parsertest.Input(t, local, f, nil)
}

func find(s *parsertest.Sink, tt timeline.TurnType, text string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && e.Text == text {
			out = append(out, e)
		}
	}
	return out
}

func one(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, text string) timeline.Event {
	t.Helper()
	got := find(s, tt, text)
	if len(got) != 1 {
		t.Fatalf("want one %s row %q, got %d; rows:\n%s", tt, text, len(got), parsertest.Render(s))
	}
	return got[0]
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		id, path, target string
		want             bool
	}{
		{"windsurf/cascade-pb", home + "/.codeium/windsurf/cascade/0b6f4c1e-3c1d-4f5e-9a3b-2d1c0e9f8a7b.pb", "cascade", true},
		{"windsurf/cascade-pb", home + "/.codeium/windsurf-next/cascade/x.pb", "cascade", true},
		{"windsurf/cascade-pb", home + "/.codeium/windsurf/memories/x.pb", "memories", false},
		{"windsurf/hook-transcript", home + "/.windsurf/transcripts/traj-1.jsonl", "hook-transcripts", true},
		{"windsurf/hook-transcript", home + "/.windsurf/transcripts/traj-1.json", "hook-transcripts", false},
		{"windsurf/mcp-config", home + "/.codeium/windsurf/mcp_config.json", "mcp-config", true},
		{"windsurf/mcp-config", home + "/.codeium/windsurf/mcp_config.json", "workflows", false},
	} {
		f := parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(&f); got != c.want {
			t.Errorf("%s Match(%s) = %v, want %v", c.id, c.path, got, c.want)
		}
	}
}

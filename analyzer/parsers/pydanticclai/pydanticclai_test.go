package pydanticclai

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, file, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, "testdata/"+file, parser.File{Path: "/home/ex/.pydantic-ai/prompt-history.txt", Rel: ".pydantic-ai/prompt-history.txt", Agent: agentName, Target: "prompt-history", MTime: time.Date(2026, 7, 18, 0, 0, 0, 0, time.UTC)}, nil)
	return parsertest.Golden(t, byID(t, "pydantic-clai/prompt-history"), in, "testdata/"+golden+".golden.jsonl")
}

// TestPromptHistory: each entry once (a multi-line prompt one row), a
// slash command a system row, host-local times, a stray line reported.
func TestPromptHistory(t *testing.T) {
	s := run(t, "prompt-history.txt", "prompt-history")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	want := `2 user t=2026-07-17T10:00:00.123Z/local-as-utc: "what is the capital of France?"
5 system t=2026-07-17T10:01:00.000Z/local-as-utc: "command: /markdown"
8 user t=2026-07-17T10:02:00.000Z/local-as-utc: "write a haiku\nabout rain"
`
	if b.String() != want {
		t.Fatalf("rows:\n%s", b.String())
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 11: skipped_record: not a prompt history line" {
		t.Fatalf("problems:\n%s", p)
	}
}

// TestPromptHistoryEmpty: an empty history gives nothing.
func TestPromptHistoryEmpty(t *testing.T) {
	s := run(t, "empty.txt", "empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

package opencode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func byID(t *testing.T, id string) parser.Parser {
	t.Helper()
	for _, p := range Parsers() {
		if p.ID() == id {
			return p
		}
	}
	t.Fatalf("no parser %s", id)
	return nil
}

func ofType(s *parsertest.Sink, tt timeline.TurnType) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt {
			out = append(out, e)
		}
	}
	return out
}

func withText(s *parsertest.Sink, prefix string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, prefix) {
			out = append(out, e)
		}
	}
	return out
}

func withID(s *parsertest.Sink, tt timeline.TurnType, id string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && e.ToolUseID == id {
			out = append(out, e)
		}
	}
	return out
}

func filepathGlob(root, pattern string) ([]string, error) {
	return filepath.Glob(filepath.Join(root, pattern))
}

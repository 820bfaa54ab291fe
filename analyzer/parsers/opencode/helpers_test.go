package opencode

import (
	"path/filepath"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

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

package vscode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

// golden parses testdata/<name> presented at orig and compares with
// testdata/<case>.golden.jsonl.
func golden(t *testing.T, id, name, orig, target string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: target}
	in := parsertest.Input(t, filepath.Join("testdata", name), f, related)
	c := strings.TrimSuffix(strings.TrimSuffix(name, filepath.Ext(name)), ".sql")
	return parsertest.Golden(t, byID(t, id), in, filepath.Join("testdata", c+".golden.jsonl"))
}

// find returns the events of a turn type whose text contains sub.
func find(s *parsertest.Sink, tt timeline.TurnType, sub string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			out = append(out, e)
		}
	}
	return out
}

func count(s *parsertest.Sink, tt timeline.TurnType) int {
	n := 0
	for _, e := range s.Events {
		if e.TurnType == tt {
			n++
		}
	}
	return n
}

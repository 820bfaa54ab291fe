package qwen

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
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

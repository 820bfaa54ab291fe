package chatgptdesktop_test

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/chatgptdesktop"
)

// The hot path: the thread catalog of codex-dev.db (testdata/typical.sql),
// read through SQLite as the engine hands it over.

func BenchmarkThreadCatalog(b *testing.B) {
	db := parsertest.SQLite(b, "testdata/typical.sql")
	f := parser.File{Path: "/Users/alice/.codex/sqlite/codex-dev.db", Agent: chatgptdesktop.FileAgent, Target: "state-db"}
	in := parsertest.Input(b, db, f, nil)
	p := chatgptdesktop.ThreadCatalog()
	parsertest.BenchInput(b, p, in)
}

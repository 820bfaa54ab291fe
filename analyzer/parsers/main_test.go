package parsers_test

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestMain checks the goldens the cross-parser tests write (the empty
// store of every SQLite parser) against testdata/versions.json, as each
// parser package's TestMain checks its own: a parser whose output there
// changes under the same Spec.Version fails.
func TestMain(m *testing.M) { parsertest.Main(m) }

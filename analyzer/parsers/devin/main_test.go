package devin

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestMain runs the tests, then checks the goldens they read against
// testdata/versions.json and for orphans (parsertest.Main).
func TestMain(m *testing.M) { parsertest.Main(m) }

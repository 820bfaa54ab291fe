package devin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestTranscriptDataAfter: a transcript with a second value after its
// object keeps its rows and problems and adds one naming the byte where the
// unread data starts (before, the rest after the first value went unsaid).
func TestTranscriptDataAfter(t *testing.T) {
	b, err := os.ReadFile("testdata/transcripts/sess-1.json")
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "sess-1.json")
	if err := os.WriteFile(local, append(b, []byte("\n"+`{"steps":[]}`)...), 0o600); err != nil {
		t.Fatal(err)
	}
	f := parser.File{Path: root + "transcripts/sess-1.json", Target: "transcripts", Agent: Agent, MTime: mtime}
	whole := parsertest.Run(t, byID(t, "devin/transcripts"), parsertest.Input(t, "testdata/transcripts/sess-1.json", f, nil))
	s := parsertest.Run(t, byID(t, "devin/transcripts"), parsertest.Input(t, local, f, nil))
	want := "line 0: data after the JSON value (from byte 1696) not read: a second value or junk after its end (a rewrite cut or racing another)|" + strings.Join(whole.Problems, "|")
	if len(s.Events) != len(whole.Events) || len(s.Events) == 0 || strings.Join(s.Problems, "|") != want {
		t.Fatalf("rows %d (whole file %d) problems %q, want %q", len(s.Events), len(whole.Events), s.Problems, want)
	}
}

package findings

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestFieldIdx: every field a rule can name has its own index, in
// fieldNames order; any other name has none.
func TestFieldIdx(t *testing.T) {
	for i, n := range fieldNames {
		if got := fieldIdx(n); got != i {
			t.Errorf("fieldIdx(%q) = %d, want %d", n, got, i)
		}
	}
	for _, n := range []string{"", "Text", "texts", "command"} {
		if got := fieldIdx(n); got != -1 {
			t.Errorf("fieldIdx(%q) = %d, want -1", n, got)
		}
	}
}

// TestSigmaRowLower: Lower is strings.ToLower of the field, row after
// row with the buffers reused, for ASCII, non-ASCII and long text.
func TestSigmaRowLower(t *testing.T) {
	var s sigmaRow
	long := strings.Repeat("RM -RF / ", 200000)
	for _, text := range []string{"Run RM -RF", "no upper", "ÉCOLE Straße", "", long, "SHORT", "İstanbul", "x\xffY"} {
		r := &timeline.Row{Text: text, ToolName: "Bash"}
		s.reset(r)
		for range 2 {
			if got, want := s.Lower("text"), strings.ToLower(text); got != want {
				t.Fatalf("Lower(text) of %.40q = %.40q, want %.40q", text, got, want)
			}
			if got := s.Lower("tool_name"); got != "bash" {
				t.Fatalf("Lower(tool_name) = %q", got)
			}
		}
	}
	if s.Lower("nope") != "" {
		t.Fatal("Lower of an unknown field")
	}
}

package kiro

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestSessionStateDataAfter: a Kiro CLI <id>.json holding a second value
// after its object (a rewrite cut or racing another) keeps its rows and is a
// problem naming the byte where the unread data starts; before, the decoder
// stopped at the first value and the rest went unsaid.
func TestSessionStateDataAfter(t *testing.T) {
	src := "testdata/kiro-sessions/cli/" + kiroSID + ".json"
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), kiroSID+".json")
	if err := os.WriteFile(local, append(b, []byte(`{"session_id":"other"}`+"\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	f := parser.File{Path: sessDir + kiroSID + ".json", Target: "kiro-sessions", Agent: Agent, MTime: mtime}
	s := parsertest.Run(t, byID(t, "kiro/sessions"), parsertest.Input(t, local, f, nil))
	want := "line 0: data after the JSON value (from byte 540) not read: a second value or junk after its end (a rewrite cut or racing another)"
	if len(s.Events) != 2 || strings.Join(s.Problems, "|") != want {
		t.Fatalf("rows %d problems %q, want 2 rows and %q", len(s.Events), s.Problems, want)
	}
}

// TestDelegateDataAfter: the same for a delegate execution record.
func TestDelegateDataAfter(t *testing.T) {
	b, err := os.ReadFile("testdata/delegate.json")
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "rust-agent.json")
	if err := os.WriteFile(local, append(b, []byte("garbage")...), 0o600); err != nil {
		t.Fatal(err)
	}
	f := parser.File{Path: home + "/demo/.amazonq/.subagents/rust-agent.json", Target: "project", Agent: Agent, MTime: mtime}
	whole := parsertest.Run(t, byID(t, "kiro/agents"), parsertest.Input(t, "testdata/delegate.json", f, nil))
	s := parsertest.Run(t, byID(t, "kiro/agents"), parsertest.Input(t, local, f, nil))
	want := "line 0: data after the JSON value (from byte 257) not read: a second value or junk after its end (a rewrite cut or racing another)"
	if len(s.Events) != len(whole.Events) || len(s.Events) == 0 || len(whole.Problems) != 0 || strings.Join(s.Problems, "|") != want {
		t.Fatalf("rows %d (whole %d) problems %q, want %q", len(s.Events), len(whole.Events), s.Problems, want)
	}
}

package codex

import (
	"strings"
	"testing"
)

// TestSessionIndexGolden: each line of session_index.jsonl is one system
// row "thread name: <name>" in its thread's session at updated_at; a
// rename is a second row; "unknown" reads time_basis none; a bad line, a
// line without an id and a thread_name of the wrong type are problems.
func TestSessionIndexGolden(t *testing.T) {
	s := golden(t, "codex-cli/session-index", "testdata/session_index.jsonl", "/home/examiner/.codex/session_index.jsonl", "session-index")
	var got []string
	for _, e := range s.Events {
		got = append(got, e.SessionID[len(e.SessionID)-2:]+" "+string(e.TurnType)+" "+e.TimeString()+" "+string(e.TimeBasis)+" "+e.Text)
		if !e.Secondary {
			t.Errorf("row not secondary: %+v", e)
		}
	}
	want := "01 system 2026-03-02T09:00:05.000Z  thread name: wipe the audit trail|" +
		"01 system 2026-03-02T09:30:00.250Z  thread name: refactor logging|" +
		"02 system  none thread name: "
	if strings.Join(got, "|") != want {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if len(s.Problems) != 3 {
		t.Fatalf("problems: %v", s.Problems)
	}
}

package timeline

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A session whose rows name no model has "models": [] in sessions.jsonl
// (every field present, as output.md promises), never null.
func TestSessionWithoutModelHasEmptyModels(t *testing.T) {
	a := NewAggregator()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a.Add(&Event{Host: "h", User: "u", Agent: "codex-cli", SessionID: "s1", TurnType: User, Text: "hi", Time: at, SourceFile: "/f"})
	a.Add(&Event{Host: "h", User: "u", Agent: "codex-cli", SessionID: "s2", TurnType: Assistant, Model: "m1", Text: "yo", Time: at, SourceFile: "/g"})
	ss := a.Sessions()
	if len(ss) != 2 {
		t.Fatalf("%d sessions", len(ss))
	}
	var b bytes.Buffer
	for _, s := range ss {
		if err := AppendJSON(&b, s); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if !strings.Contains(lines[0], `"session_id":"s1"`) || !strings.Contains(lines[0], `"models":[]`) || !strings.Contains(lines[0], `"source_files":["/f"]`) {
		t.Errorf("session without a model: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"models":["m1"]`) {
		t.Errorf("session with a model: %s", lines[1])
	}
	if strings.Contains(b.String(), "null") {
		t.Errorf("null in sessions: %s", b.String())
	}
}

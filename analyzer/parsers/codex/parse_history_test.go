package codex

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func TestHistoryGolden(t *testing.T) {
	s := golden(t, "codex-cli/history", "testdata/history.jsonl", "/home/examiner/.codex/history.jsonl", "history")
	if len(s.Events) != 2 {
		t.Fatalf("rows: %+v", s.Events)
	}
	e := s.Events[0]
	if e.TurnType != timeline.User || !e.Secondary || e.Text != "list the files" ||
		e.SessionID != "0199bbbb-0000-7000-8000-000000000002" || e.TimeString() != "2026-03-02T09:00:01.000Z" || e.SourceLine != 1 {
		t.Fatalf("first row: %+v", e)
	}
	if len(s.Problems) != 2 {
		t.Fatalf("problems: %v", s.Problems)
	}
}

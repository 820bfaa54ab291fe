package parser

import (
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
	json "github.com/go-json-experiment/json/v1"
)

func TestStandardJSON(t *testing.T) {
	in := []byte("{\n  // a comment\n  \"a\": [1, 2,], /* block */\n  \"b\": \"// not a comment\",\n}")
	var m map[string]any
	if err := json.Unmarshal(StandardJSON(in), &m); err != nil {
		t.Fatalf("%v: %s", err, StandardJSON(in))
	}
	if m["b"] != "// not a comment" || len(m["a"].([]any)) != 2 {
		t.Fatalf("decoded %v", m)
	}
	bad := []byte(`{"a": `)
	if string(StandardJSON(bad)) != string(bad) {
		t.Fatal("unreadable input must come back unchanged")
	}
}

func TestSettingEventAndDisplayFile(t *testing.T) {
	mt := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	e := SettingEvent(&File{MTime: mt})
	if e.TurnType != timeline.System || e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(mt) || e.Time.Location() != time.UTC {
		t.Fatalf("event %+v", e)
	}
	if e := SettingEvent(&File{}); e.TimeBasis != timeline.TimeNone || !e.Time.IsZero() {
		t.Fatalf("undated event %+v", e)
	}
	if got := DisplayFile(&File{Path: "/home/a/.claude/settings.json", Rel: ".claude/settings.json"}); got != ".claude/settings.json" {
		t.Fatal(got)
	}
	if got := DisplayFile(&File{Path: `C:\Users\a\.gemini\settings.json`}); got != "settings.json" {
		t.Fatal(got)
	}
}

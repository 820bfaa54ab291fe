package goose

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)

func fileInput(t *testing.T, local, orig, target string) *parser.Input {
	t.Helper()
	return parsertest.Input(t, local, parser.File{Path: orig, Rel: strings.TrimPrefix(orig, "/home/examiner/"), Agent: Agent, Target: target, MTime: mtime}, nil)
}

func texts(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, e.Text)
	}
	return out
}

func TestPermissionYAML(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/settings"), fileInput(t, "testdata/permission.yaml", "/home/examiner/.config/goose/permission.yaml", "settings"), "testdata/permission.golden.jsonl")
	want := []string{
		"permission setting: user.always_allow=developer__shell (from .config/goose/permission.yaml, file mtime)",
		"permission setting: user.never_allow=computercontroller__web_scrape (from .config/goose/permission.yaml, file mtime)",
		"permission setting: smart_approve.ask_before=developer__text_editor (from .config/goose/permission.yaml, file mtime)",
	}
	if strings.Join(texts(s), "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows: %q", texts(s))
	}
	if s.Events[0].SourceLine != 3 || s.Events[1].SourceLine != 6 || s.Events[0].TimeBasis != timeline.TimeFileMTime || !s.Events[0].Time.Equal(mtime) {
		t.Fatalf("first rows: %+v", s.Events[:2])
	}
}

func TestRoamingTrust(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/settings"), fileInput(t, "testdata/roaming_trust.json", "/home/examiner/.config/goose/roaming_trust.json", "settings"), "testdata/roaming_trust.golden.jsonl")
	got := texts(s)
	if len(got) != 2 || got[0] != "permission setting: allowed=a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2 (from .config/goose/roaming_trust.json, file mtime)" ||
		!strings.HasPrefix(got[1], "permission setting: revoked_keys=ffeedd") || s.Events[1].SourceLine != 6 {
		t.Fatalf("rows: %q", got)
	}
}

func TestConfigYAML(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/settings"), fileInput(t, "testdata/config.yaml", "/home/examiner/.config/goose/config.yaml", "settings"), "testdata/config.golden.jsonl")
	want := []string{
		"model setting: openai/gpt-4o (from .config/goose/config.yaml, file mtime)",
		"permission setting: GOOSE_MODE=approve (from .config/goose/config.yaml, file mtime)",
	}
	if strings.Join(texts(s), "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows: %q", texts(s))
	}
}

func TestSettingsMalformed(t *testing.T) {
	s := parsertest.Run(t, byID(t, "goose/settings"), fileInput(t, "testdata/bad_permission.yaml", "/home/examiner/.config/goose/permission.yaml", "settings"))
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
	s = parsertest.Run(t, byID(t, "goose/settings"), fileInput(t, "testdata/empty.jsonl", "/home/examiner/.config/goose/roaming_trust.json", "settings"))
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

func TestSchedule(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/schedule"), fileInput(t, "testdata/schedule.json", "/home/examiner/.local/share/goose/schedule.json", "schedule"), "testdata/schedule.golden.jsonl")
	if len(s.Events) != 2 {
		t.Fatalf("rows: %+v", s.Events)
	}
	e := s.Events[0]
	if e.Text != "scheduled task: id=nightly-report cron=0 0 2 * * * source=/home/examiner/.local/share/goose/scheduled_recipes/nightly-report.yaml (last run)" ||
		e.TimeString() != "2026-03-02T02:00:00.123Z" || e.TimeBasis != timeline.TimeRecorded || e.SourceLine != 1 {
		t.Fatalf("first: %+v", e)
	}
	if e := s.Events[1]; e.Text != "scheduled task: id=weekly cron=0 0 9 * * 1 source=/home/examiner/recipes/weekly.yaml paused" || e.TimeBasis != timeline.TimeFileMTime {
		t.Fatalf("second: %+v", e)
	}
	bad := parsertest.Run(t, byID(t, "goose/schedule"), fileInput(t, "testdata/malformed.jsonl", "/home/examiner/.local/share/goose/schedule.json", "schedule"))
	if len(bad.Events) != 0 || len(bad.Problems) != 1 {
		t.Fatalf("%+v %v", bad.Events, bad.Problems)
	}
}

func TestHistory(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/history"), fileInput(t, "testdata/history.txt", "/home/examiner/.config/goose/history.txt", "history"), "testdata/history.golden.jsonl")
	got := texts(s)
	if len(got) != 3 || got[0] != "list the files here" || got[1] != "write a poem\nin two lines" || got[2] != "fix the build" {
		t.Fatalf("rows: %q", got)
	}
	for _, e := range s.Events {
		if !e.Secondary || e.TurnType != timeline.User || e.TimeBasis != timeline.TimeNone || !e.Time.IsZero() {
			t.Fatalf("row: %+v", e)
		}
	}
	if s.Events[2].SourceLine != 5 {
		t.Fatalf("line: %+v", s.Events[2])
	}
}

func TestLLMRequest(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/llm-requests"), fileInput(t, "testdata/llm_request.0.jsonl", "/home/examiner/.local/state/goose/logs/llm_request.0.jsonl", "llm-requests"), "testdata/llm_request.golden.jsonl")
	got := texts(s)
	if strings.Join(got, "|") != "llm request: model=gpt-4o|now count them|llm request error: Request failed: 429 Too Many Requests" {
		t.Fatalf("rows: %q", got)
	}
	for _, e := range s.Events {
		if !e.Secondary || e.TimeBasis != timeline.TimeFileMTime {
			t.Fatalf("row: %+v", e)
		}
	}
	if s.Events[1].TurnType != timeline.User || s.Events[2].SourceLine != 3 {
		t.Fatalf("rows: %+v", s.Events)
	}
	bad := parsertest.Run(t, byID(t, "goose/llm-requests"), fileInput(t, "testdata/malformed.jsonl", "/home/examiner/.local/state/goose/logs/llm_request.1.jsonl", "llm-requests"))
	if len(bad.Problems) != 2 {
		t.Fatalf("problems: %v", bad.Problems)
	}
}

package claudecode

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// The typed prompts Claude Code 1.0.x kept in ~/.claude.json
// projects[<path>].history (anthropics/claude-code#1449, #816, #6988 on
// 1.0.100, #7385 on 1.0.110): newest first, the text shown and its pastes
// (the earliest releases a bare string). Each gives an undated secondary
// user row at the entry's line; nothing else in the file is read.
func TestLegacyHistory(t *testing.T) {
	in := parsertest.Input(t, "testdata/legacy_history.claude.json", parser.File{Path: "/home/examiner/.claude.json", Rel: ".claude.json", Agent: Agent, Target: "claude-json"}, nil)
	s := parsertest.Golden(t, LegacyHistory(), in, "testdata/legacy_history.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		got = append(got, fmt.Sprintf("%d %s %s %q secondary=%v basis=%q id=%q", e.SourceLine, e.ProjectPath, e.TurnType, e.Text, e.Secondary, e.TimeBasis, e.RecordID))
	}
	want := []string{
		`10 /home/examiner/demo user "fix the failing test FAIL src/app.test.ts\n  expected 2\n  received 3" secondary=true basis="none" id=""`,
		`20 /home/examiner/demo user "/init" secondary=true basis="none" id=""`,
		`24 /home/examiner/demo user "add a README that explains the build" secondary=true basis="none" id=""`,
		`46 /home/examiner/ops user "run the deploy script" secondary=true basis="none" id=""`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 29: member(s) of an unexpected type read as null, the rest of the record read: display" {
		t.Errorf("problems: %q", p)
	}
	if sk := fmt.Sprint(s.Skips); sk != "[{25 no_evidence:empty history entry} {29 no_evidence:empty history entry}]" {
		t.Errorf("skips: %s", sk)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "examiner@example.invalid") || strings.Contains(e.Text, "0f3c5a1e") {
			t.Errorf("account data in a row: %q", e.Text)
		}
	}
}

// A file cut inside a history array keeps the entries before the cut and
// says where it stopped.
func TestLegacyHistoryCut(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/.claude.json"
	writeFile(t, p, "{\n  \"projects\": {\n    \"/p\": {\n      \"history\": [\n        {\"display\": \"kept\"},\n        {\"display\": \"cu")
	in := parsertest.Input(t, p, parser.File{Path: "/home/examiner/.claude.json", Agent: Agent, Target: "claude-json"}, nil)
	s := parsertest.Run(t, LegacyHistory(), in)
	if len(s.Events) != 1 || s.Events[0].Text != "kept" || s.Events[0].SourceLine != 5 {
		t.Fatalf("events %+v", s.Events)
	}
	if p := strings.Join(s.Problems, "\n"); !strings.HasPrefix(p, "line 5: projects[/p] cut short or corrupt after this line, the history entries before it read: ") {
		t.Errorf("problems: %q", p)
	}
}

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A 1.0.x .claude.json's per-project permissions: allowedTools and the
// ignorePatterns that 1.0.7 moved to settings.local.json deny rules
// (anthropics/claude-code CHANGELOG 1.0.7: "Migrated allowedTools and
// ignorePatterns from .claude.json -> settings.json").
func TestLegacyClaudeJSONSettings(t *testing.T) {
	in := parsertest.Input(t, "testdata/legacy_history.claude.json", parser.File{Path: "/home/examiner/.claude.json", Rel: ".claude.json", Agent: Agent, Target: "claude-json"}, nil)
	s := parsertest.Run(t, Settings(), in)
	var got []string
	for _, e := range s.Events {
		got = append(got, e.ProjectPath+" "+e.Text)
	}
	want := []string{
		"/home/examiner/demo permission setting: ignorePatterns=.env (from .claude.json, file mtime)",
		"/home/examiner/demo permission setting: ignorePatterns=secrets/** (from .claude.json, file mtime)",
		"/home/examiner/demo permission setting: hasTrustDialogAccepted=true (from .claude.json, file mtime)",
		"/home/examiner/ops permission setting: allowedTools=Bash(git status) (from .claude.json, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(s.Problems) != 0 {
		t.Errorf("rows:\n%s\nwant:\n%s\nproblems %q", strings.Join(got, "\n"), strings.Join(want, "\n"), s.Problems)
	}
}

// history.jsonl's timestamp is epoch milliseconds; one written in another
// unit is read in the unit its size says, not as milliseconds.
func TestHistoryTimestampUnits(t *testing.T) {
	want := time.Date(2026, 11, 30, 17, 55, 24, 0, time.UTC)
	for _, raw := range []string{"1796061324", "1796061324000", "1796061324000000", "1796061324000000000", `"1796061324000"`, `"2026-11-30T17:55:24Z"`} {
		if got := epochMillis(json.RawMessage(raw)); !got.Equal(want) {
			t.Errorf("%s: %v", raw, got)
		}
	}
	for _, raw := range []string{"0", "-5", "null", `""`, `"soon"`} {
		if got := epochMillis(json.RawMessage(raw)); !got.IsZero() {
			t.Errorf("%s: %v, want no time", raw, got)
		}
	}
}

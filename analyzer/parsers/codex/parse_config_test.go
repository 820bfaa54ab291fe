package codex

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var configMTime = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

func configInput(t *testing.T, local, orig string) *parser.Input {
	return parsertest.Input(t, local, parser.File{Path: orig, Agent: agentName, Target: "config", MTime: configMTime}, nil)
}

func TestConfigGolden(t *testing.T) {
	p := byID(t, "codex-cli/config")
	s := parsertest.Golden(t, p, configInput(t, "testdata/config.toml", "/home/examiner/.codex/config.toml"), "testdata/config.golden.jsonl")
	want := []string{
		"permission setting: approval_policy=on-request (from config.toml, file mtime)",
		"permission setting: sandbox_mode=workspace-write (from config.toml, file mtime)",
		"permission setting: sandbox_workspace_write.network_access=true (from config.toml, file mtime)",
		`permission setting: sandbox_workspace_write.writable_roots=["/home/examiner/scratch"] (from config.toml, file mtime)`,
		`permission setting: projects."/home/examiner/demo".trust_level=trusted (from config.toml, file mtime)`,
		`permission setting: projects."/home/examiner/other".trust_level=untrusted (from config.toml, file mtime)`,
		"permission setting: profiles.yolo.approval_policy=never (from config.toml, file mtime)",
		"permission setting: profiles.yolo.sandbox_mode=danger-full-access (from config.toml, file mtime)",
		"model setting: gpt-5-codex (from config.toml, file mtime)",
	}
	got := map[string]timeline.Event{}
	for _, e := range s.Events {
		got[e.Text] = e
		if strings.Contains(e.Text, "secret") || strings.Contains(e.Text, "MOCK_API_KEY") {
			t.Fatalf("secret printed: %s", e.Text)
		}
		if e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(configMTime) || e.TurnType != timeline.System {
			t.Fatalf("row time/type: %+v", e)
		}
	}
	for _, w := range want {
		if _, ok := got[w]; !ok {
			t.Errorf("missing %q", w)
		}
	}
	if len(s.Events) != len(want) {
		t.Errorf("%d rows, want %d", len(s.Events), len(want))
	}
	if e := got[`permission setting: projects."/home/examiner/other".trust_level=untrusted (from config.toml, file mtime)`]; e.SourceLine != 20 {
		t.Errorf("trust_level line %d, want 20", e.SourceLine)
	}
	if e := got["permission setting: approval_policy=on-request (from config.toml, file mtime)"]; e.SourceLine != 2 {
		t.Errorf("approval_policy line %d, want 2", e.SourceLine)
	}
}

func TestConfigRules(t *testing.T) {
	p := byID(t, "codex-cli/config")
	s := parsertest.Golden(t, p, configInput(t, "testdata/rules/default.rules", "/home/examiner/.codex/rules/default.rules"), "testdata/default_rules.golden.jsonl")
	if len(s.Events) != 2 || s.Events[0].Text != `permission setting: rule=prefix_rule(pattern=["git", "status"], decision="allow") (from rules/default.rules, file mtime)` || s.Events[0].SourceLine != 2 {
		t.Fatalf("rules rows: %+v", s.Events)
	}
}

func TestConfigMalformed(t *testing.T) {
	s := parsertest.Run(t, byID(t, "codex-cli/config"), configInput(t, "testdata/bad_config.toml", "/home/examiner/.codex/config.toml"))
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("bad TOML: %+v %v", s.Events, s.Problems)
	}
}

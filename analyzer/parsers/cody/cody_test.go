package cody

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	home     = "/home/alice"
	stateGS  = home + "/.config/Code/User/globalStorage/state.vscdb"
	jbState  = home + "/.local/share/Cody-nodejs/JetBrains-globalState/"
	settings = home + "/.config/Code/User/settings.json"
	legacy   = home + "/demo/.idea/cody_history.xml"
)

var mtime = time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(append(Parsers(), vscodestate.ExtensionStateParsers(StateExtension())...))

func run(t *testing.T, id, local string, f parser.File, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, id)
	f.MTime = mtime
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, f.Path)
	}
	if strings.HasSuffix(local, ".sql") {
		local = parsertest.SQLite(t, local)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, nil), golden)
}

func TestGolden(t *testing.T) {
	for _, c := range []struct {
		name, id, local string
		f               parser.File
	}{
		{"state", "vscode/extension-state", "testdata/state.sql", parser.File{Path: stateGS, Agent: "vscode", Target: "state-db"}},
		{"state_malformed", "vscode/extension-state", "testdata/state_malformed.sql", parser.File{Path: stateGS, Agent: "vscode", Target: "state-db"}},
		{"state_nohistory", "vscode/extension-state", "testdata/state_nohistory.sql", parser.File{Path: stateGS, Agent: "vscode", Target: "state-db"}},
		{"cursor_state", "cursor/extension-state", "testdata/state.sql", parser.File{Path: home + "/.config/Cursor/User/globalStorage/state.vscdb", Agent: "cursor", Target: "state-db"}},
		{"jetbrains_history", "cody/jetbrains-state", "testdata/jetbrains/cody-local-chatHistory-v2", parser.File{Path: jbState + "cody-local-chatHistory-v2", Agent: Agent, Target: "jetbrains-state"}},
		{"jetbrains_models", "cody/jetbrains-state", "testdata/jetbrains/cody-model-preferences", parser.File{Path: jbState + "cody-model-preferences", Agent: Agent, Target: "jetbrains-state"}},
		{"jetbrains_malformed", "cody/jetbrains-state", "testdata/jetbrains/malformed", parser.File{Path: jbState + "cody-local-chatHistory-v2", Agent: Agent, Target: "jetbrains-state"}},
		{"settings", "cody/settings", "testdata/settings.json", parser.File{Path: settings, Rel: ".config/Code/User/settings.json", Agent: "vscode", Target: "settings"}},
		{"legacy_history", "cody/legacy-history", "testdata/cody_history.xml", parser.File{Path: legacy, Agent: Agent, Target: "project"}},
	} {
		t.Run(c.name, func(t *testing.T) { run(t, c.id, c.local, c.f, "testdata/"+c.name+".golden.jsonl") })
	}
}

func find(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			return e
		}
	}
	t.Fatalf("no %s row containing %q", tt, sub)
	return timeline.Event{}
}

// TestStateRows: every row kind of the state row, with exact values.
func TestStateRows(t *testing.T) {
	s := run(t, "vscode/extension-state", "testdata/state.sql", parser.File{Path: stateGS, Agent: "vscode", Target: "state-db"}, "testdata/state.golden.jsonl")
	chatT := time.Date(2026, 10, 6, 9, 15, 2, 0, time.UTC)
	sid := "Tue, 06 Oct 2026 09:15:02 GMT"
	u := find(t, s, timeline.User, "remove the build folder")
	if u.Agent != Agent || u.SessionID != sid || !u.Time.Equal(chatT) || u.TimeBasis != timeline.TimeInherited || u.SourceLine != 2 || u.RecordID != sid+":0h#1" {
		t.Fatalf("user row %+v", u)
	}
	call := find(t, s, timeline.ToolUse, "run_terminal_command")
	if call.ToolUseID != "toolu_01" || call.ToolInput != `{"command":"rm -rf build/"}` || call.Model != "anthropic::2024-10-22::claude-sonnet-4-latest" {
		t.Fatalf("tool call %+v", call)
	}
	res := find(t, s, timeline.ToolResult, "removed 12 files")
	if res.ToolUseID != "toolu_01" {
		t.Fatalf("tool result %+v", res)
	}
	for _, e := range s.Events {
		if e.TurnType == timeline.User && e.Text == "removed 12 files" {
			t.Fatal("tool output became a user row")
		}
	}
	perm := find(t, s, timeline.System, "permission request:")
	if perm.Text != "permission request: Run command rm -rf build/ state=success" || perm.ToolUseID != "confirm-1" {
		t.Fatalf("permission row %q", perm.Text)
	}
	if e := find(t, s, timeline.System, "error:"); e.Text != "error: RateLimitError: you have reached the daily limit" {
		t.Fatalf("error row %q", e.Text)
	}
	if e := find(t, s, timeline.System, "context files:"); e.Text != "context files: /home/alice/demo/Makefile" {
		t.Fatalf("context row %q", e.Text)
	}
	m := find(t, s, timeline.System, "model preference: endpoint=https://sourcegraph.com/ selected.chat")
	if m.Model != "google::v1::gemini-2.0-flash" || m.TimeBasis != timeline.TimeFileMTime || !m.Time.Equal(mtime) {
		t.Fatalf("model row %+v", m)
	}
	// CODY-3538: a UUID chat id takes its time from lastInteractionTimestamp
	imp := find(t, s, timeline.User, "imported from JetBrains")
	if !imp.Time.Equal(time.Date(2026, 10, 5, 18, 0, 0, 0, time.UTC)) || imp.SessionID != "6f1c2a10-0000-4000-8000-000000000001" {
		t.Fatalf("imported chat row %+v", imp)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "sourcegraphAnonymousUid") || strings.Contains(e.Text, "\"x\"") {
			t.Fatalf("unread key leaked: %q", e.Text)
		}
	}
}

func TestSettingsNoSecret(t *testing.T) {
	s := run(t, "cody/settings", "testdata/settings.json", parser.File{Path: settings, Rel: ".config/Code/User/settings.json", Agent: "vscode", Target: "settings"}, "testdata/settings.golden.jsonl")
	for _, e := range s.Events {
		if strings.Contains(e.Text, "sk-ant") || strings.Contains(e.Text, "never") {
			t.Fatalf("secret in row %q", e.Text)
		}
	}
	if e := find(t, s, timeline.System, "shell.allow=git"); e.Text != "permission setting: cody.agentic.context.experimentalOptions.shell.allow=git (from .config/Code/User/settings.json, file mtime)" {
		t.Fatalf("allow row %q", e.Text)
	}
	find(t, s, timeline.System, "cody.mcpServers.web=http://127.0.0.1:9000/mcp disabled=true")
}

func TestLegacyHistory(t *testing.T) {
	s := run(t, "cody/legacy-history", "testdata/cody_history.xml", parser.File{Path: legacy, Agent: Agent, Target: "project"}, "testdata/legacy_history.golden.jsonl")
	u := find(t, s, timeline.User, "what does deploy.sh do?")
	if !u.Secondary || u.TimeBasis != timeline.TimeLocalAsUTC || !u.Time.Equal(time.Date(2024, 3, 4, 10, 11, 12, 123456000, time.UTC)) || u.ProjectPath != home+"/demo" || u.SessionID != "0b7f0f6e-1111-4000-8000-00000000000a" {
		t.Fatalf("legacy user row %+v", u)
	}
	if a := find(t, s, timeline.Assistant, "copies the build"); a.Model != "anthropic/claude-3-sonnet-20240229" {
		t.Fatalf("legacy model %q", a.Model)
	}
}

func TestEmpty(t *testing.T) {
	for _, c := range []struct {
		name, id string
		f        parser.File
	}{
		{"empty_jetbrains", "cody/jetbrains-state", parser.File{Path: jbState + "cody-local-chatHistory-v2", Agent: Agent, Target: "jetbrains-state"}},
		{"empty_legacy", "cody/legacy-history", parser.File{Path: legacy, Agent: Agent, Target: "project"}},
		{"empty_settings", "cody/settings", parser.File{Path: settings, Agent: "vscode", Target: "settings"}},
	} {
		s := run(t, c.id, "testdata/empty.txt", c.f, "testdata/"+c.name+".golden.jsonl")
		if len(s.Events)+len(s.Problems)+len(s.Skips) != 0 {
			t.Fatalf("%s: an empty file gave %d rows, %q", c.name, len(s.Events), s.Problems)
		}
	}
}

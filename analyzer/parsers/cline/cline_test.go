package cline

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	vsTasks = "/home/examiner/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"
	vsState = "/home/examiner/.config/Code/User/globalStorage/saoudrizwan.claude-dev/state"
	cliData = "/home/examiner/.cline/data"
)

var mtime = time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)

type goldenCase struct {
	name, local, orig, parser, target string
	related                           parsertest.Files
}

func goldenCases() []goldenCase {
	return []goldenCase{
		{"ui_typical", "testdata/ui_typical.json", vsTasks + "/1760000000000/ui_messages.json", "cline/ui-messages", "tasks",
			parsertest.Files{vsState + "/taskHistory.json": "testdata/taskHistory.json"}},
		{"ui_cut", "testdata/ui_cut.json", cliData + "/tasks/1760000000000/ui_messages.json", "cline/ui-messages", "cli-tasks", nil},
		{"ui_stray_bracket", "testdata/ui_stray_bracket.json", cliData + "/tasks/1760000000000/ui_messages.json", "cline/ui-messages", "cli-tasks", nil},
		{"ui_empty", "testdata/empty.json", cliData + "/tasks/1760000000000/ui_messages.json", "cline/ui-messages", "cli-tasks", nil},
		{"ui_malformed", "testdata/malformed.json", cliData + "/tasks/1760000000000/ui_messages.json", "cline/ui-messages", "cli-tasks", nil},
		{"api_xml", "testdata/api_xml.json", vsTasks + "/task-legacy/api_conversation_history.json", "cline/api-history", "tasks", nil},
		{"api_native", "testdata/api_native.json", cliData + "/tasks/1760000000000/api_conversation_history.json", "cline/api-history", "cli-tasks", nil},
		{"api_malformed", "testdata/malformed.json", cliData + "/tasks/1760000000000/api_conversation_history.json", "cline/api-history", "cli-tasks", nil},
		{"task_history", "testdata/taskHistory.json", vsState + "/taskHistory.json", "cline/task-history", "task-history",
			parsertest.Files{vsTasks + "/1760000000000/ui_messages.json": "testdata/ui_typical.json"}},
		{"task_metadata", "testdata/task_metadata.json", cliData + "/tasks/1760000000000/task_metadata.json", "cline/task-metadata", "cli-task-files", nil},
		{"global_state", "testdata/globalState.json", cliData + "/globalState.json", "cline/settings", "settings", nil},
		{"mcp_settings", "testdata/cline_mcp_settings.json", cliData + "/settings/cline_mcp_settings.json", "cline/settings", "settings", nil},
		{"input_history", "testdata/user_input_history.jsonl", cliData + "/cache/user_input_history.jsonl", "cline/input-history", "input-history", nil},
	}
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			p := byID(t, c.parser)
			f := parser.File{Path: c.orig, Agent: Agent, Target: c.target, MTime: mtime}
			if !p.Match(&f) {
				t.Fatalf("%s does not match %s", c.parser, c.orig)
			}
			parsertest.Golden(t, p, parsertest.Input(t, c.local, f, c.related), "testdata/"+c.name+".golden.jsonl")
		})
	}
}

func find(s *parsertest.Sink, turn timeline.TurnType, prefix string) *timeline.Event {
	for i := range s.Events {
		if s.Events[i].TurnType == turn && strings.HasPrefix(s.Events[i].Text, prefix) {
			return &s.Events[i]
		}
	}
	return nil
}

func run(t *testing.T, id, local, orig string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: "tasks", MTime: mtime}
	return parsertest.Run(t, byID(t, id), parsertest.Input(t, local, f, related))
}

// A ui_messages.json cut mid-rewrite (cline/cline#954) keeps the elements
// before the cut and reports the cut.
func TestUICut(t *testing.T) {
	s := run(t, "cline/ui-messages", "testdata/ui_cut.json", cliData+"/tasks/1760000000000/ui_messages.json", nil)
	if len(s.Events) != 1 || s.Events[0].Text != "a" || s.Events[0].TurnType != timeline.User {
		t.Fatalf("events: %+v", s.Events)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "line 2: array cut short after element 1") {
		t.Fatalf("problems: %v", s.Problems)
	}
}

// A stray "]" after the array (cline/cline#335) still gives every element.
func TestUIStrayBracket(t *testing.T) {
	s := run(t, "cline/ui-messages", "testdata/ui_stray_bracket.json", cliData+"/tasks/1760000000000/ui_messages.json", nil)
	if len(s.Events) != 2 || s.Events[1].Text != "second" || s.Events[1].TurnType != timeline.Assistant {
		t.Fatalf("events: %+v", s.Events)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "stray bracket") {
		t.Fatalf("problems: %v", s.Problems)
	}
}

// The API history is a fallback: beside a collected ui_messages.json it
// gives no rows.
func TestAPIHistorySkippedBesideUI(t *testing.T) {
	dir := cliData + "/tasks/1760000000000"
	s := run(t, "cline/api-history", "testdata/api_native.json", dir+"/api_conversation_history.json",
		parsertest.Files{dir + "/ui_messages.json": "testdata/ui_typical.json"})
	if len(s.Events) != 0 {
		t.Fatalf("rows beside ui_messages.json: %d", len(s.Events))
	}
}

func TestUITypical(t *testing.T) {
	s := run(t, "cline/ui-messages", "testdata/ui_typical.json", vsTasks+"/1760000000000/ui_messages.json",
		parsertest.Files{vsState + "/taskHistory.json": "testdata/taskHistory.json"})
	u := find(s, timeline.User, "Add a health check")
	if u == nil || u.ProjectPath != "/home/examiner/demo" || u.SessionID != "1760000000000" || u.TimeString() != "2025-10-09T08:53:20.000Z" {
		t.Fatalf("prompt: %+v", u)
	}
	cmd := find(s, timeline.ToolUse, "go test")
	res := find(s, timeline.ToolResult, "ok  demo")
	if cmd == nil || res == nil || cmd.Text != "go test ./..." || cmd.ToolUseID == "" || res.ToolUseID != cmd.ToolUseID {
		t.Fatalf("command pairing: %+v %+v", cmd, res)
	}
	if m := find(s, timeline.System, "model: claude-sonnet-4-5 -> claude-opus-4-1"); m == nil {
		t.Fatal("no model switch row")
	}
	if d := find(s, timeline.System, "permission decision: denied source=CLINE_COMMAND_PERMISSIONS"); d == nil {
		t.Fatal("no decision row")
	}
	if a := find(s, timeline.Assistant, "Added GET /health"); a == nil || a.Text != "Added GET /health." || a.Model != "claude-opus-4-1" {
		t.Fatalf("completion: %+v", a)
	}
}

func TestAPIXMLPairing(t *testing.T) {
	s := run(t, "cline/api-history", "testdata/api_xml.json", vsTasks+"/task-legacy/api_conversation_history.json", nil)
	var calls, results []timeline.Event
	for _, e := range s.Events {
		switch e.TurnType {
		case timeline.ToolUse:
			calls = append(calls, e)
		case timeline.ToolResult:
			results = append(results, e)
		}
	}
	if len(calls) != 4 || calls[0].Text != "a.txt" || calls[1].Text != "b.txt" || calls[2].Text != "rm -rf build" {
		t.Fatalf("calls: %+v", calls)
	}
	if len(results) != 3 || results[0].ToolUseID != calls[0].ToolUseID || results[1].ToolUseID != calls[2].ToolUseID || results[2].ToolUseID != calls[3].ToolUseID {
		t.Fatalf("pairing: %+v", results)
	}
	if d := find(s, timeline.System, "permission decision: denied source=user"); d == nil {
		t.Fatal("no denial row")
	}
	if u := find(s, timeline.User, "keep the build dir"); u == nil {
		t.Fatal("feedback not a user row")
	}
	if u := find(s, timeline.User, "c.txt"); u == nil {
		t.Fatal("followup answer not a user row")
	}
	if sys := find(s, timeline.System, "Tool [read_file] was not executed"); sys == nil {
		t.Fatal("refused call not a system row")
	}
	if u := find(s, timeline.User, "List the files"); u == nil || u.ProjectPath != "/home/examiner/old" || u.TimeBasis != timeline.TimeNone {
		t.Fatalf("prompt: %+v", u)
	}
}

func TestSettingsNoSecrets(t *testing.T) {
	for _, c := range []string{"testdata/globalState.json", "testdata/cline_mcp_settings.json"} {
		s := run(t, "cline/settings", c, cliData+"/"+c[len("testdata/"):], nil)
		for _, e := range s.Events {
			if strings.Contains(e.Text, "sk-should") || strings.Contains(e.Text, "ghp_") {
				t.Fatalf("secret printed: %s", e.Text)
			}
		}
	}
}

package roocode

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	gs     = "/home/examiner/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline"
	cliGS  = "/home/examiner/.vscode-mock/global-storage"
	subID  = "7c1e2f40-0000-4000-8000-000000000002"
	subDir = gs + "/tasks/" + subID
)

var mtime = time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

type goldenCase struct {
	name, local, orig, parser, target string
	related                           parsertest.Files
}

func TestGolden(t *testing.T) {
	for _, c := range []goldenCase{
		{"ui_subtask", "testdata/ui_subtask.json", subDir + "/ui_messages.json", "roo-code/ui-messages", "tasks",
			parsertest.Files{subDir + "/history_item.json": "testdata/history_item.json"}},
		{"ui_empty", "testdata/empty.json", subDir + "/ui_messages.json", "roo-code/ui-messages", "tasks", nil},
		{"ui_malformed", "testdata/malformed.json", subDir + "/ui_messages.json", "roo-code/ui-messages", "tasks", nil},
		{"api_full", "testdata/api_decisions.json", cliGS + "/tasks/" + subID + "/api_conversation_history.json", "roo-code/api-history", "cli-tasks", nil},
		{"api_decisions_only", "testdata/api_decisions.json", subDir + "/api_conversation_history.json", "roo-code/api-history", "tasks",
			parsertest.Files{subDir + "/ui_messages.json": "testdata/ui_subtask.json", subDir + "/history_item.json": "testdata/history_item.json"}},
		{"task_index", "testdata/_index.json", gs + "/tasks/_index.json", "roo-code/task-index", "tasks",
			parsertest.Files{subDir + "/ui_messages.json": "testdata/ui_subtask.json"}},
		{"global_state", "testdata/global-state.json", cliGS + "/global-state.json", "roo-code/settings", "cli-global-state", nil},
		{"cli_settings", "testdata/cli-settings.json", "/home/examiner/.roo/cli-settings.json", "roo-code/settings", "cli-settings", nil},
		{"mcp_settings", "testdata/mcp_settings.json", gs + "/settings/mcp_settings.json", "roo-code/settings", "settings", nil},
		{"project_mcp", "testdata/mcp_settings.json", "/home/examiner/demo/.roo/mcp.json", "roo-code/settings", "project", nil},
		{"cli_history", "testdata/cli-history.json", "/home/examiner/.roo/cli-history.json", "roo-code/cli-history", "cli-history", nil},
	} {
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

func TestSubtaskUI(t *testing.T) {
	f := parser.File{Path: subDir + "/ui_messages.json", Agent: Agent, Target: "tasks"}
	s := parsertest.Run(t, byID(t, "roo-code/ui-messages"), parsertest.Input(t, "testdata/ui_subtask.json", f,
		parsertest.Files{subDir + "/history_item.json": "testdata/history_item.json"}))
	first := s.Events[0]
	if first.Text != "subagent "+subID+" of 7c1e2f40-0000-4000-8000-000000000001" || first.TimeString() != "2025-10-09T08:53:20.000Z" {
		t.Fatalf("first row: %+v", first)
	}
	u := find(s, timeline.User, "Write the unit tests")
	if u == nil || u.ProjectPath != "/home/examiner/demo" || u.SessionID != subID {
		t.Fatalf("prompt: %+v", u)
	}
	if a := find(s, timeline.Assistant, "Reading the parser."); a == nil {
		t.Fatal("later say text is not an assistant row")
	}
	var decisions []timeline.Event
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, "permission decision:") {
			decisions = append(decisions, e)
		}
	}
	if len(decisions) != 1 || decisions[0].Text != "permission decision: approved source=isAnswered" || decisions[0].ToolName != "readFile" || decisions[0].SourceLine != 5 {
		t.Fatalf("decisions: %+v", decisions)
	}
}

func TestAPIDecisionsBesideUI(t *testing.T) {
	f := parser.File{Path: subDir + "/api_conversation_history.json", Agent: Agent, Target: "tasks"}
	s := parsertest.Run(t, byID(t, "roo-code/api-history"), parsertest.Input(t, "testdata/api_decisions.json", f,
		parsertest.Files{subDir + "/ui_messages.json": "testdata/ui_subtask.json"}))
	var got []string
	for _, e := range s.Events {
		if e.TurnType != timeline.System {
			t.Fatalf("non-decision row beside ui_messages.json: %+v", e)
		}
		got = append(got, e.ToolName+"|"+e.Text)
	}
	want := []string{
		"apply_diff|permission decision: denied source=user",
		"execute_command|permission decision: approved source=user",
		"read_file|permission decision: blocked source=.rooignore path=.env",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestAPIFull(t *testing.T) {
	f := parser.File{Path: cliGS + "/tasks/" + subID + "/api_conversation_history.json", Agent: Agent, Target: "cli-tasks"}
	s := parsertest.Run(t, byID(t, "roo-code/api-history"), parsertest.Input(t, "testdata/api_decisions.json", f, nil))
	u := find(s, timeline.User, "Write the unit tests")
	if u == nil || u.ProjectPath != "/home/examiner/demo" || u.TimeString() != "2025-10-09T08:53:20.000Z" {
		t.Fatalf("prompt: %+v", u)
	}
	if fb := find(s, timeline.User, "no, put the tests in a table"); fb == nil || fb.SourceLine != 5 {
		t.Fatalf("denial feedback: %+v", fb)
	}
	r := find(s, timeline.ToolResult, "{\"status\":\"error\"")
	if r == nil || r.ToolUseID != "call_4" || r.ToolName != "read_file" || r.IsError != "true" {
		t.Fatalf("blocked result: %+v", r)
	}
}

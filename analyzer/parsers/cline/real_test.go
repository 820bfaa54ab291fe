package cline

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

// TestRealCLIAPIHistory reads the real Cline CLI API history (tomjnsn/agentlogs
// fixtures/cline/crud.json at 556a2037), presented at the task folder its own
// commands list (~/.cline/data/tasks/1770913324799/).
func TestRealCLIAPIHistory(t *testing.T) {
	local := parsertest.SharedSamples(t, "cline/agentlogs/crud.api_conversation_history.json")
	f := parser.File{Path: "/Users/bee/.cline/data/tasks/1770913324799/api_conversation_history.json", Agent: Agent, Target: "cli-tasks"}
	s := parsertest.Run(t, byID(t, "cline/api-history"), parsertest.Input(t, local, f, nil))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	var users, uses, results []timeline.Event
	for _, e := range s.Events {
		switch e.TurnType {
		case timeline.User:
			users = append(users, e)
		case timeline.ToolUse:
			uses = append(uses, e)
		case timeline.ToolResult:
			results = append(results, e)
		}
		if e.SessionID != "1770913324799" || e.ProjectPath != "/Users/bee/dev/agentlogs" {
			t.Fatalf("session/project: %+v", e)
		}
		if e.TimeBasis != timeline.TimeInherited || e.TimeString() != "2026-02-12T16:22:04.799Z" {
			t.Fatalf("time: %s %s", e.TimeString(), e.TimeBasis)
		}
	}
	if len(users) != 2 || users[0].Text != "tell me abouth this repo" || !strings.HasPrefix(users[1].Text, "add a new plugin for a new coding agent cline.") {
		t.Fatalf("users: %+v", users)
	}
	if len(uses) != 38 {
		t.Fatalf("tool uses = %d, want 38", len(uses))
	}
	if len(results) != 37 {
		t.Fatalf("tool results = %d, want 37 (the last call is unanswered)", len(results))
	}
	// The second of three parallel read_file calls is answered by the second
	// result text, paired by order and name.
	var got timeline.Event
	for _, r := range results {
		if r.ToolUseID == "toolu_01EhCWNGGmZr4dvkP22yASsD" {
			got = r
		}
	}
	if got.ToolName != "read_file" || !strings.HasPrefix(got.Text, "[read_file for 'package.json'] Result:\n{\n  \"name\": \"agentlogs\"") || got.SourceLine != 3 || got.IsError != "false" {
		t.Fatalf("paired result: %+v", got)
	}
	for _, r := range results {
		if r.ToolUseID == "" {
			t.Fatalf("unpaired result: %.80s", r.Text)
		}
	}
	u := uses[0]
	if u.ToolUseID != "toolu_01JH2WF2prmeHwr12VBMNBcD" || u.Text != "README.md" || u.Model != "claude-opus-4-6" || u.SourceLine != 2 {
		t.Fatalf("first call: %+v", u)
	}
	var cmd timeline.Event
	for _, e := range uses {
		if e.ToolUseID == "toolu_01FYixH6XDNTVXxZJciYoD6d" {
			cmd = e
		}
	}
	if cmd.ToolName != "execute_command" || cmd.Text != "ls /Users/bee/.cline/data/tasks/ 2>/dev/null | head -5" {
		t.Fatalf("command: %+v", cmd)
	}
	if s.Events[0].TurnType != timeline.User || s.Events[0].SourceLine != 1 || s.Events[1].TurnType != timeline.System {
		t.Fatalf("first rows: %+v", s.Events[:2])
	}
	models := 0
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, "model: ") {
			models++
			if e.Text != "model: claude-opus-4-6" || e.SourceLine != 2 {
				t.Fatalf("model row: %+v", e)
			}
		}
	}
	if models != 1 {
		t.Fatalf("model rows = %d", models)
	}
}

package copilotcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// realScenario is one Copilot CLI scenario of real-agents-2.expect.json
// (the shape the real-agents generator writes for every agent).
type realScenario struct {
	Scenario       string `json:"scenario"`
	SessionID      string `json:"session_id"`
	Prompt         string `json:"prompt"`
	Command        string `json:"command"`
	OutputContains string `json:"output_contains"`
	Started        string `json:"started_utc"`
	Ended          string `json:"ended_utc"`
	Mock           struct {
		ToolCalls []struct {
			Tool    string `json:"tool"`
			ID      string `json:"id"`
			Command string `json:"command"`
		} `json:"tool_calls"`
		ToolResults []struct {
			IsError bool `json:"is_error"`
		} `json:"tool_results"`
	} `json:"mock"`
}

// realHome returns fixtures/roots/real-agents-2's home and its Copilot
// CLI scenarios; a missing fixture fails (parsertest.RealAgentFixture).
func realHome(t *testing.T) (parsertest.RealAgent, []realScenario) {
	t.Helper()
	fx := parsertest.RealAgentFixture(t, "real-agents-2", "copilot-cli")
	fx.Glob(t, ".copilot/session-state/*/events.jsonl")
	var c struct {
		Scenarios []realScenario `json:"scenarios"`
	}
	if err := json.Unmarshal(fx.Expect, &c); err != nil || len(c.Scenarios) == 0 {
		t.Fatalf("no copilot-cli scenarios in real-agents-2.expect.json: %v", err)
	}
	return fx, c.Scenarios
}

func TestRealAgentEvents(t *testing.T) {
	fx, scenarios := realHome(t)
	home := fx.Home
	for _, sc := range scenarios {
		sc := sc
		t.Run(sc.Scenario, func(t *testing.T) {
			sdir := filepath.Join(home, ".copilot", "session-state", sc.SessionID)
			local := filepath.Join(sdir, "events.jsonl")
			if _, err := os.Stat(local); err != nil {
				t.Fatalf("no events.jsonl for session %s", sc.SessionID)
			}
			orig := fx.HomePath + "/.copilot/session-state/" + sc.SessionID
			f := parser.File{Path: orig + "/events.jsonl", Agent: Agent, Target: "events"}
			s := parsertest.Run(t, byID(t, "copilot-cli/events"), parsertest.Input(t, local, f,
				parsertest.Files{orig + "/workspace.yaml": filepath.Join(sdir, "workspace.yaml")}))
			if len(s.Problems) != 0 {
				t.Fatalf("problems: %v", s.Problems)
			}
			start, _ := time.Parse(time.RFC3339Nano, sc.Started)
			end, _ := time.Parse(time.RFC3339Nano, sc.Ended)
			var prompt bool
			uses, results := map[string]timeline.Event{}, map[string]timeline.Event{}
			for _, e := range s.Events {
				if e.SessionID != sc.SessionID {
					t.Fatalf("row with session %q: %q", e.SessionID, e.Text)
				}
				switch e.TurnType {
				case timeline.User:
					if e.Text == sc.Prompt && !e.Time.Before(start.Add(-time.Second)) && !e.Time.After(end.Add(time.Second)) {
						prompt = true
					}
				case timeline.ToolUse:
					uses[e.ToolUseID] = e
				case timeline.ToolResult:
					results[e.ToolUseID] = e
				}
			}
			if !prompt {
				t.Errorf("prompt %q not found as a user row in [%s, %s]", sc.Prompt, sc.Started, sc.Ended)
			}
			for i, call := range sc.Mock.ToolCalls {
				u, ok := uses[call.ID]
				if !ok {
					t.Errorf("tool call %s missing", call.ID)
					continue
				}
				if call.Command != "" && !strings.Contains(u.Text, call.Command) {
					t.Errorf("tool call %s text %q, want %q", call.ID, u.Text, call.Command)
				}
				r, ok := results[call.ID]
				if !ok {
					continue // a denied call may have no result
				}
				if i < len(sc.Mock.ToolResults) {
					want := "false"
					if sc.Mock.ToolResults[i].IsError {
						want = "true"
					}
					if r.IsError != want {
						t.Errorf("result %s is_error %s, want %s", call.ID, r.IsError, want)
					}
				}
				if sc.OutputContains != "" && call.Command != "" && !strings.Contains(r.Text, sc.OutputContains) {
					t.Errorf("result %s text %q lacks %q", call.ID, r.Text, sc.OutputContains)
				}
			}
		})
	}
}

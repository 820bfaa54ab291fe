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
			subs := map[string]bool{}
			for _, e := range s.Events {
				if e.SessionID != sc.SessionID && e.ParentSessionID != sc.SessionID {
					t.Fatalf("row with session %q (parent %q): %q", e.SessionID, e.ParentSessionID, e.Text)
				}
				if e.SessionID != sc.SessionID {
					subs[e.SessionID] = true
				}
				if e.RecordID == "" {
					t.Errorf("row without a record id: %q", e.Text)
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
			if (sc.Scenario == "subagent") != (len(subs) == 1) {
				t.Errorf("sub-agent sessions %v", subs)
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

// TestRealAgentSubagent: Copilot CLI 1.0.102's sub-agent (real-agents-2,
// scenario subagent) in its own session, with the parent model's prompt
// as a system row (issue 12), and the whole file accounted for.
func TestRealAgentSubagent(t *testing.T) {
	fx, _ := realHome(t)
	const root, sub = "48c862c5-063c-4bc2-a6ed-bd1651dfbe0e", "50200c47-77a7-4fbc-8027-30871c4ba17e"
	sdir := filepath.Join(fx.Home, ".copilot", "session-state", root)
	orig := fx.HomePath + "/.copilot/session-state/" + root
	f := parser.File{Path: orig + "/events.jsonl", Agent: Agent, Target: "events"}
	s := parsertest.Golden(t, byID(t, "copilot-cli/events"), parsertest.Input(t, filepath.Join(sdir, "events.jsonl"), f,
		parsertest.Files{orig + "/workspace.yaml": filepath.Join(sdir, "workspace.yaml")}), "testdata/real_subagent.golden.jsonl")
	var header, task, call, users int
	for _, e := range s.Events {
		switch {
		case e.Text == "subagent "+sub+" of "+root:
			header++
			if e.SessionID != sub || e.ParentSessionID != root || e.SourceLine != 8 {
				t.Errorf("header: %+v", e)
			}
		case e.Text == "subagent task: Run the shell command `echo doubleagent-copilot-subagent` and tell me what it printed.":
			task++
			if e.TurnType != timeline.System || e.SessionID != sub || e.RecordID != "b39685e0-77af-4bd0-a695-20bb0d6a6851" {
				t.Errorf("task: %+v", e)
			}
		case e.TurnType == timeline.ToolUse && e.Text == "echo doubleagent-copilot-subagent":
			call++
			if e.SessionID != sub || e.ParentSessionID != root || e.ToolUseID != "call_mock12aadd4ee0ccd87174661a24" || e.Model != "gpt-4.1" {
				t.Errorf("sub-agent call: %+v", e)
			}
		case e.TurnType == timeline.ToolUse && e.ToolName == "task":
			if e.SessionID != root || e.ParentSessionID != "" {
				t.Errorf("task call: %+v", e)
			}
		}
		if e.TurnType == timeline.User {
			users++
			if e.SessionID != root {
				t.Errorf("user row in %s: %q", e.SessionID, e.Text)
			}
		}
	}
	if header != 1 || task != 1 || call != 1 || users != 1 {
		t.Fatalf("header %d task %d call %d users %d", header, task, call, users)
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != sub || s.States[0].ParentSessionID != root {
		t.Fatalf("states: %+v", s.States)
	}
}

// TestRealAgentRewindIndex: the 1.0.102 rewind index keys its files by a
// hash and names the path inside; the prompt carries the user.message
// event's id.
func TestRealAgentRewindIndex(t *testing.T) {
	fx, _ := realHome(t)
	const id = "ccd20063-a7d4-4f53-8da0-36c3e3a35ae5"
	sdir := filepath.Join(fx.Home, ".copilot", "session-state", id)
	orig := fx.HomePath + "/.copilot/session-state/" + id
	f := parser.File{Path: orig + "/rewind-file-snapshots/index.json", Agent: Agent, Target: "rewind-index"}
	s := parsertest.Run(t, byID(t, "copilot-cli/rewind-index"), parsertest.Input(t, filepath.Join(sdir, "rewind-file-snapshots", "index.json"), f,
		parsertest.Files{orig + "/workspace.yaml": filepath.Join(sdir, "workspace.yaml")}))
	if len(s.Events) != 2 || len(s.Problems) != 0 {
		t.Fatalf("rows %+v problems %v", s.Events, s.Problems)
	}
	u, sys := s.Events[0], s.Events[1]
	if u.TurnType != timeline.User || u.RecordID != "497853b4-3052-44ef-8451-848d7583eabc" || !u.Secondary || u.ProjectPath != "/home/examiner2/demo" {
		t.Fatalf("prompt: %+v", u)
	}
	if sys.Text != "rewind snapshot: snapshotId=88ad271a-6e88-42ff-881e-59b3a1514285 eventId=497853b4-3052-44ef-8451-848d7583eabc files /home/examiner2/demo/copilot-notes.txt" ||
		sys.RecordID != "88ad271a-6e88-42ff-881e-59b3a1514285" {
		t.Fatalf("snapshot: %+v", sys)
	}
}

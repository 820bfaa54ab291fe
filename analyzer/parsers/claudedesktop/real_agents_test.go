package claudedesktop

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

// realExpect is the part of fixtures/roots/real-agents.expect.json read here.
type realExpect struct {
	ClaudeCode struct {
		Version   string `json:"version"`
		Scenarios []struct {
			Scenario  string `json:"scenario"`
			SessionID string `json:"session_id"`
			Prompt    string `json:"prompt"`
			Command   string `json:"command"`
			Output    string `json:"output_contains"`
			Started   string `json:"started_utc"`
			Ended     string `json:"ended_utc"`
			Mock      struct {
				ToolCalls []struct {
					ID string `json:"id"`
				} `json:"tool_calls"`
			} `json:"mock"`
		} `json:"scenarios"`
	} `json:"claude-code"`
}

// TestRealClaudeCodeTranscriptAsCowork presents the transcripts real Claude
// Code wrote in fixtures/roots/real-agents (the engine the desktop app runs
// for Cowork and the Code tab writes the same format) at a Cowork session
// path with a synthetic session record, and checks the real values come
// through the claude-code reader relabelled as claude-desktop with the
// record's host folder as project.
func TestRealClaudeCodeTranscriptAsCowork(t *testing.T) {
	dir, _ := os.Getwd()
	var x realExpect
	var projects string
	for i := 0; i < 6 && projects == ""; i++ {
		p := filepath.Join(dir, "fixtures", "roots", "real-agents.expect.json")
		if b, err := os.ReadFile(p); err == nil {
			if err := json.Unmarshal(b, &x); err != nil {
				t.Fatal(err)
			}
			projects = filepath.Join(dir, "fixtures", "roots", "real-agents", "home", "examiner", ".claude", "projects", "-home-examiner-demo")
		}
		dir = filepath.Dir(dir)
	}
	if projects == "" || len(x.ClaudeCode.Scenarios) == 0 {
		t.Fatal("real-agent fixture fixtures/roots/real-agents (its expect.json and claude-code scenarios) not found")
	}
	rec := filepath.Join(t.TempDir(), "local_real.json")
	if err := os.WriteFile(rec, []byte(`{"sessionId":"local_real","userSelectedFolders":["/home/examiner/Documents/host-folder"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sess := "/home/examiner/.config/Claude/local-agent-mode-sessions/acct/org/local_real"
	checked := 0
	for _, sc := range x.ClaudeCode.Scenarios {
		if sc.Scenario != "basic" && sc.Scenario != "edit" {
			continue
		}
		local := filepath.Join(projects, sc.SessionID+".jsonl")
		if _, err := os.Stat(local); err != nil {
			t.Fatalf("%s: transcript missing: %v", sc.Scenario, err)
		}
		orig := sess + "/.claude/projects/-sessions-real/" + sc.SessionID + ".jsonl"
		in := parsertest.Input(t, local, parser.File{Path: orig, Agent: Agent, Target: "sessions"},
			parsertest.Files{sess + ".json": rec})
		s := parsertest.Run(t, Transcript(), in)
		if len(s.Problems) != 0 {
			t.Errorf("%s: problems %q", sc.Scenario, s.Problems)
		}
		start, end := parsertest.Time(t, sc.Started), parsertest.Time(t, sc.Ended)
		var prompt bool
		calls := map[string]string{}
		results := map[string]timeline.Event{}
		for _, e := range s.Events {
			if e.Agent != Agent || e.SessionID != sc.SessionID || e.ProjectPath != "/home/examiner/Documents/host-folder" {
				t.Fatalf("%s: row %+v", sc.Scenario, e)
			}
			if e.TurnType == timeline.User && e.Text == sc.Prompt {
				prompt = true
				if e.Time.Before(start.Add(-time.Minute)) || e.Time.After(end.Add(time.Minute)) {
					t.Errorf("%s: prompt at %v outside %v..%v", sc.Scenario, e.Time, start, end)
				}
			}
			if e.TurnType == timeline.ToolUse {
				calls[e.ToolUseID] = e.Text
			}
			if e.TurnType == timeline.ToolResult {
				results[e.ToolUseID] = e
			}
		}
		if !prompt {
			t.Errorf("%s: prompt %q not found", sc.Scenario, sc.Prompt)
		}
		for _, c := range sc.Mock.ToolCalls {
			if _, ok := calls[c.ID]; !ok {
				t.Errorf("%s: tool call %s missing", sc.Scenario, c.ID)
			}
			if r, ok := results[c.ID]; !ok || r.IsError == "" {
				t.Errorf("%s: tool result of %s missing or without is_error", sc.Scenario, c.ID)
			}
		}
		if sc.Scenario == "basic" {
			id := sc.Mock.ToolCalls[0].ID
			if calls[id] != sc.Command || !strings.Contains(results[id].Text, sc.Output) {
				t.Errorf("basic: call %q result %q", calls[id], results[id].Text)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no basic/edit claude-code scenario in the real-agent fixture")
	}
}

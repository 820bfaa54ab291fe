package pi

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestRealAgentSessions reads the pi sessions of the real-agents-2 fixture
// (written by the real pi against a loopback mock model) and checks them
// against real-agents-2.expect.json: each scenario's session id, prompt,
// and the mock's tool call id, paired between tool_use and tool_result.
func TestRealAgentSessions(t *testing.T) {
	fx := parsertest.RealAgentFixture(t, "real-agents-2", "pi")
	files := fx.Glob(t, ".pi/agent/sessions/*/*.jsonl")
	bySession := map[string]*parsertest.Sink{}
	for _, local := range files {
		rel, orig := filepath.Base(local), fx.Orig(local)
		s := parsertest.Run(t, byID(t, "pi/session"), parsertest.Input(t, local, parser.File{Path: orig, Agent: Agent, Target: "sessions"}, nil))
		if len(s.Problems) != 0 {
			t.Errorf("%s: problems %v", rel, s.Problems)
		}
		uses := map[string]bool{}
		for _, e := range s.Events {
			if e.TurnType == timeline.ToolUse {
				uses[e.ToolUseID] = true
			}
			if e.SessionID == "" || e.Time.IsZero() {
				t.Errorf("%s line %d: no session or time", rel, e.SourceLine)
			}
		}
		for _, e := range s.Events {
			if e.TurnType == timeline.ToolResult && !uses[e.ToolUseID] {
				t.Errorf("%s: result %q without its call", rel, e.ToolUseID)
			}
		}
		if !strings.Contains(filepath.Base(local), s.Events[0].SessionID) {
			t.Errorf("%s: session id %q not in the file name", rel, s.Events[0].SessionID)
		}
		bySession[s.Events[0].SessionID] = s
	}
	var pi struct {
		Scenarios []struct {
			Scenario   string `json:"scenario"`
			SessionID  string `json:"session_id"`
			Prompt     string `json:"prompt"`
			KilledWith string `json:"killed_with"`
			Mock       struct {
				ToolCalls []struct {
					ID string `json:"id"`
				} `json:"tool_calls"`
			} `json:"mock"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(fx.Expect, &pi); err != nil || len(pi.Scenarios) == 0 {
		t.Fatalf("no pi scenarios in real-agents-2.expect.json: %v", err)
	}
	if len(files) != 4 {
		t.Errorf("%d pi session files, want 4 (basic and its resume share one; the killed run left none)", len(files))
	}
	for _, sc := range pi.Scenarios {
		s := bySession[sc.SessionID]
		if sc.KilledWith != "" {
			// In this fixture pi 0.73.1, killed while its first request
			// stalled, left no session file at all.
			if s != nil {
				t.Errorf("%s: a session file for the run killed before any reply", sc.Scenario)
			}
			continue
		}
		if s == nil {
			t.Errorf("%s: session %s not found", sc.Scenario, sc.SessionID)
			continue
		}
		if sc.Prompt != "" && len(find(s, timeline.User, sc.Prompt)) == 0 {
			t.Errorf("%s: prompt %q not a user row", sc.Scenario, sc.Prompt)
		}
		for _, c := range sc.Mock.ToolCalls {
			var use, res bool
			for _, e := range s.Events {
				use = use || (e.TurnType == timeline.ToolUse && e.ToolUseID == c.ID)
				res = res || (e.TurnType == timeline.ToolResult && e.ToolUseID == c.ID)
			}
			if !use || !res {
				t.Errorf("%s: call %s use=%v result=%v", sc.Scenario, c.ID, use, res)
			}
		}
	}
}

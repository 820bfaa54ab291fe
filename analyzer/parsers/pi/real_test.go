package pi

import (
	"encoding/json"
	"os"
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
	root := filepath.Join("..", "..", "..", "fixtures", "roots", "real-agents-2")
	homeDir := filepath.Join(root, "home", "examiner2")
	files, _ := filepath.Glob(filepath.Join(homeDir, ".pi", "agent", "sessions", "*", "*.jsonl"))
	if len(files) == 0 {
		t.Skip("real-agents-2 pi sessions not present: skipping")
	}
	bySession := map[string]*parsertest.Sink{}
	for _, local := range files {
		rel, _ := filepath.Rel(homeDir, local)
		orig := "/home/examiner2/" + filepath.ToSlash(rel)
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
	b, err := os.ReadFile(filepath.Join(root, "..", "real-agents-2.expect.json"))
	if err != nil {
		t.Skip("real-agents-2.expect.json not present")
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var pi struct {
		Scenarios []struct {
			Scenario  string `json:"scenario"`
			SessionID string `json:"session_id"`
			Prompt    string `json:"prompt"`
			Mock      struct {
				ToolCalls []struct {
					ID string `json:"id"`
				} `json:"tool_calls"`
			} `json:"mock"`
		} `json:"scenarios"`
	}
	if raw, ok := all["pi"]; !ok || json.Unmarshal(raw, &pi) != nil {
		t.Skip("no pi scenarios in real-agents-2.expect.json")
	}
	for _, sc := range pi.Scenarios {
		s := bySession[sc.SessionID]
		if s == nil && sc.Scenario == "killed" {
			continue // pi was killed before it wrote a session file (fixtures/roots/README.md)
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

package opencode

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The stores real OpenCode and Kilo Code runs wrote against a scripted
// loopback model in fixtures/roots/real-agents-2 (being generated; the
// test skips while it is absent), checked against real-agents-2.expect.json.

type realScenario struct {
	Scenario  string `json:"scenario"`
	SessionID string `json:"session_id"`
	Prompt    string `json:"prompt"`
	Command   string `json:"command"`
	Output    string `json:"output_contains"`
	Mock      struct {
		ToolCalls []struct {
			ID      string `json:"id"`
			Command string `json:"command"`
		} `json:"tool_calls"`
	} `json:"mock"`
}

func realRoot(t *testing.T) (string, map[string]json.RawMessage) {
	t.Helper()
	dir, _ := os.Getwd()
	root := filepath.Join(dir, "..", "..", "..", "fixtures", "roots")
	b, err := os.ReadFile(filepath.Join(root, "real-agents-2.expect.json"))
	if err != nil {
		t.Skip("fixtures/roots/real-agents-2.expect.json not present")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "real-agents-2"), m
}

// copyDB copies a database with its -wal and -shm sidecars into a temp dir.
func copyDB(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	for _, sc := range []string{"", "-wal", "-shm"} {
		in, err := os.Open(src + sc)
		if err != nil {
			continue
		}
		out, err := os.Create(filepath.Join(dir, filepath.Base(src)+sc))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(out, in)
		in.Close()
		out.Close()
	}
	return filepath.Join(dir, filepath.Base(src))
}

func TestRealAgents2(t *testing.T) {
	root, expect := realRoot(t)
	for _, c := range []struct{ agent, glob string }{
		{agentOpenCode, "home/*/.local/share/opencode/opencode*.db"},
		{agentKilo, "home/*/.local/share/kilo/kilo*.db"},
	} {
		t.Run(strings.ReplaceAll(c.agent, "-", "_"), func(t *testing.T) {
			raw, ok := expect[c.agent]
			if !ok {
				t.Skipf("no %s in expect.json", c.agent)
			}
			var ex struct {
				Scenarios []realScenario `json:"scenarios"`
			}
			_ = json.Unmarshal(raw, &ex)
			dbs, _ := filepath.Glob(filepath.Join(root, c.glob))
			if len(dbs) == 0 {
				t.Skipf("no %s store in real-agents-2", c.agent)
			}
			var all []timeline.Event
			for _, db := range dbs {
				rel, _ := filepath.Rel(root, db)
				orig := "/" + filepath.ToSlash(rel)
				in := parsertest.Input(t, copyDB(t, db), parser.File{Path: orig, Agent: c.agent, Target: "db"}, nil)
				p := byID(t, c.agent+"/db")
				if !p.Match(&in.File) {
					t.Fatalf("%s does not match %s", p.ID(), orig)
				}
				s := parsertest.Run(t, p, in)
				if len(s.Problems) != 0 {
					t.Errorf("%s problems: %v", orig, s.Problems)
				}
				all = append(all, s.Events...)
			}
			uses := map[string]timeline.Event{}
			for _, e := range all {
				if e.TurnType == timeline.ToolUse {
					uses[e.ToolUseID] = e
				}
			}
			for _, e := range all {
				if e.TurnType == timeline.ToolResult && e.ToolUseID != "" {
					if _, ok := uses[e.ToolUseID]; !ok {
						t.Errorf("result without call: %+v", e)
					}
				}
			}
			for _, sc := range ex.Scenarios {
				found := false
				for _, e := range all {
					if e.TurnType == timeline.User && strings.TrimSpace(e.Text) == strings.TrimSpace(sc.Prompt) && (sc.SessionID == "" || e.SessionID == sc.SessionID) {
						found = true
						if e.Time.IsZero() {
							t.Errorf("%s: prompt row undated", sc.Scenario)
						}
					}
				}
				if sc.Prompt != "" && !found {
					t.Errorf("%s: prompt %q (session %s) not found", sc.Scenario, sc.Prompt, sc.SessionID)
				}
				for _, call := range sc.Mock.ToolCalls {
					u, ok := uses[call.ID]
					if !ok {
						t.Errorf("%s: call %s not found", sc.Scenario, call.ID)
						continue
					}
					if call.Command != "" && u.Text != call.Command {
						t.Errorf("%s: call %s text %q, want %q", sc.Scenario, call.ID, u.Text, call.Command)
					}
				}
			}
			t.Logf("%d rows from %d stores", len(all), len(dbs))
		})
	}
}

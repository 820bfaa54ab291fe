package crush

import (
	"context"
	"database/sql"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

type realScenario struct {
	Scenario  string `json:"scenario"`
	SessionID string `json:"session_id"`
	Prompt    string `json:"prompt"`
	Command   string `json:"command"`
	Started   string `json:"started_utc"`
	Ended     string `json:"ended_utc"`
	Mock      struct {
		ToolCalls []struct {
			Tool    string `json:"tool"`
			ID      string `json:"id"`
			Command string `json:"command"`
			Path    string `json:"path"`
		} `json:"tool_calls"`
		ToolResults []struct {
			ToolResult string `json:"tool_result"`
			IsError    bool   `json:"is_error"`
		} `json:"tool_results"`
	} `json:"mock"`
}

// realScenarios reads the crush scenarios of real-agents-2.expect.json.
func realScenarios(t *testing.T, fx parsertest.RealAgent) []realScenario {
	t.Helper()
	var c struct {
		Scenarios []realScenario `json:"scenarios"`
	}
	if err := json.Unmarshal(fx.Expect, &c); err != nil || len(c.Scenarios) == 0 {
		t.Fatalf("no crush scenarios in real-agents-2.expect.json: %v", err)
	}
	return c.Scenarios
}

// realDBs finds the crush.db files of the fixture, as original paths
// (relative to the root) and local paths.
func realDBs(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "crush.db" {
			rel, _ := filepath.Rel(root, p)
			out["/"+filepath.ToSlash(rel)] = p
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatal("no crush.db in real-agents-2, whose expect.json says crush ran")
	}
	return out
}

// realInput copies the database and its WAL sidecars into a private
// folder, as the engine does, and opens it there.
func realInput(t *testing.T, orig, local string) *parser.Input {
	t.Helper()
	dir := t.TempDir()
	for _, suf := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(local + suf)
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "crush.db"+suf), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	in := parsertest.Input(t, filepath.Join(dir, "crush.db"), parser.File{Path: orig, Agent: Agent, Target: "project"}, nil)
	in.DBFunc = func(ctx context.Context) (*sql.DB, error) {
		return sql.Open("sqlite", "file:"+filepath.Join(dir, "crush.db"))
	}
	return in
}

func TestRealAgentCrushDB(t *testing.T) {
	// Skips while real-agents-2.expect.json records that crush could not
	// be installed ("ran": false); fails when it ran and left no files.
	fx := parsertest.RealAgentFixture(t, "real-agents-2", "crush")
	root := fx.Root
	scenarios := realScenarios(t, fx)
	var events []timeline.Event
	for orig, local := range realDBs(t, root) {
		s := parsertest.Run(t, byID(t, "crush/db"), realInput(t, orig, local))
		if len(s.Problems) != 0 {
			t.Errorf("%s problems: %v", orig, s.Problems)
		}
		for _, e := range s.Events {
			if e.ProjectPath == "" || !strings.HasSuffix(orig, "/.crush/crush.db") || e.ProjectPath != strings.TrimSuffix(orig, "/.crush/crush.db") {
				t.Fatalf("project path %q for %s", e.ProjectPath, orig)
			}
		}
		events = append(events, s.Events...)
	}
	byUse := map[string]timeline.Event{}
	byResult := map[string]timeline.Event{}
	for _, e := range events {
		switch e.TurnType {
		case timeline.ToolUse:
			byUse[e.ToolUseID] = e
		case timeline.ToolResult:
			byResult[e.ToolUseID] = e
		}
	}
	for _, sc := range scenarios {
		t.Run(sc.Scenario, func(t *testing.T) {
			var user *timeline.Event
			for i, e := range events {
				if e.TurnType == timeline.User && strings.TrimSpace(e.Text) == strings.TrimSpace(sc.Prompt) &&
					(sc.SessionID == "" || e.SessionID == sc.SessionID) {
					user = &events[i]
				}
			}
			if user == nil {
				t.Fatalf("no user row %q in session %q", sc.Prompt, sc.SessionID)
			}
			start, err1 := time.Parse(time.RFC3339Nano, sc.Started)
			end, err2 := time.Parse(time.RFC3339Nano, sc.Ended)
			if err1 == nil && err2 == nil {
				// created_at has whole seconds.
				if user.Time.Before(start.Truncate(time.Second)) || user.Time.After(end.Add(time.Second)) {
					t.Errorf("user row at %s outside %s..%s", user.TimeString(), sc.Started, sc.Ended)
				}
			}
			for i, c := range sc.Mock.ToolCalls {
				u, ok := byUse[c.ID]
				if !ok {
					t.Errorf("no tool_use %s", c.ID)
					continue
				}
				if c.Command != "" && u.Text != c.Command {
					t.Errorf("tool_use %s text %q, want %q", c.ID, u.Text, c.Command)
				}
				if u.Model == "" || u.SessionID != user.SessionID {
					t.Errorf("tool_use %s: %+v", c.ID, u)
				}
				r, ok := byResult[c.ID]
				if !ok {
					t.Errorf("no tool_result for %s", c.ID)
					continue
				}
				if i < len(sc.Mock.ToolResults) {
					want := sc.Mock.ToolResults[i]
					if r.IsError != map[bool]string{true: "true", false: "false"}[want.IsError] {
						t.Errorf("tool_result %s is_error %s", c.ID, r.IsError)
					}
				}
			}
		})
	}
}

package claudecode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// realExpect is the part of fixtures/roots/real-agents.expect.json read here.
type realExpect struct {
	Home       string `json:"home"`
	ClaudeCode struct {
		Version   string `json:"version"`
		Scenarios []struct {
			Scenario  string `json:"scenario"`
			SessionID string `json:"session_id"`
			Prompt    string `json:"prompt"`
			Started   string `json:"started_utc"`
			Ended     string `json:"ended_utc"`
			Model     string `json:"model"`
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
		} `json:"scenarios"`
	} `json:"claude-code"`
}

// realRoot finds fixtures/roots/real-agents; a missing fixture fails.
func realRoot(t *testing.T) (string, realExpect) {
	t.Helper()
	dir, _ := os.Getwd()
	for i := 0; i < 6; i++ {
		p := filepath.Join(dir, "fixtures", "roots", "real-agents.expect.json")
		if b, err := os.ReadFile(p); err == nil {
			var x realExpect
			if err := json.Unmarshal(b, &x); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			home := filepath.Join(dir, "fixtures", "roots", "real-agents", "home", "examiner")
			if _, err := os.Stat(filepath.Join(home, ".claude", "projects")); err != nil || len(x.ClaudeCode.Scenarios) == 0 {
				break
			}
			return home, x
		}
		dir = filepath.Dir(dir)
	}
	t.Fatal("real-agent fixture fixtures/roots/real-agents (its expect.json, .claude/projects and claude-code scenarios) not found")
	return "", realExpect{}
}

// realFiles maps every collected original path under home to its local file.
func realFiles(t *testing.T, home, origHome string) parsertest.Files {
	files := parsertest.Files{}
	_ = filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(home, p)
			files[origHome+"/"+filepath.ToSlash(rel)] = p
		}
		return nil
	})
	return files
}

// TestRealAgentTranscripts parses the files Claude Code wrote here against
// a scripted model and checks every scenario of the expectation file.
func TestRealAgentTranscripts(t *testing.T) {
	home, x := realRoot(t)
	origHome := x.Home
	if origHome == "" {
		origHome = "/home/examiner"
	}
	files := realFiles(t, home, origHome)
	// The killed scenario's transcript may end cut short.
	killed := map[string]bool{}
	for _, sc := range x.ClaudeCode.Scenarios {
		if sc.Scenario == "killed" && sc.SessionID != "" {
			killed[sc.SessionID] = true
		}
	}
	// Parse every transcript once.
	bySession := map[string][]timeline.Event{}
	for orig, local := range files {
		if !strings.Contains(orig, "/.claude/projects/") || !strings.HasSuffix(orig, ".jsonl") {
			continue
		}
		in := parsertest.Input(t, local, parser.File{Path: orig, Rel: strings.TrimPrefix(orig, origHome+"/"),
			Agent: Agent, Target: "projects"}, files)
		if !Transcript().Match(&in.File) {
			t.Fatalf("transcript parser does not match %s", orig)
		}
		s := parsertest.Run(t, Transcript(), in)
		for _, p := range s.Problems {
			if !killed[strings.TrimSuffix(filepath.Base(orig), ".jsonl")] {
				t.Errorf("%s: %s", orig, p)
			}
		}
		for _, e := range s.Events {
			bySession[e.SessionID] = append(bySession[e.SessionID], e)
			if e.ParentSessionID != "" {
				// A subagent's rows carry its own session; a scenario
				// reads them under its parent too.
				bySession[e.ParentSessionID] = append(bySession[e.ParentSessionID], e)
			}
		}
	}
	for _, sc := range x.ClaudeCode.Scenarios {
		t.Run(strings.ReplaceAll(sc.Scenario, "-", "_"), func(t *testing.T) {
			rows := bySession[sc.SessionID]
			if len(rows) == 0 {
				t.Fatalf("no rows for session %s", sc.SessionID)
			}
			var prompt *timeline.Event
			for i := range rows {
				if rows[i].TurnType == timeline.User && rows[i].Text == sc.Prompt {
					prompt = &rows[i]
				}
			}
			if prompt == nil {
				t.Fatalf("prompt %q not a user row", sc.Prompt)
			}
			within(t, *prompt, sc.Started, sc.Ended)
			if prompt.ProjectPath != "/home/examiner/demo" {
				t.Fatalf("project %q", prompt.ProjectPath)
			}
			for i, call := range sc.Mock.ToolCalls {
				var use, res *timeline.Event
				for j := range rows {
					if rows[j].ToolUseID != call.ID {
						continue
					}
					switch rows[j].TurnType {
					case timeline.ToolUse:
						use = &rows[j]
					case timeline.ToolResult:
						res = &rows[j]
					}
				}
				if use == nil || use.ToolName != call.Tool {
					t.Fatalf("tool_use %s (%s) missing: %+v", call.ID, call.Tool, use)
				}
				want := call.Command
				if want == "" {
					want = call.Path
				}
				if want != "" && call.Tool != "Agent" && use.Text != want {
					t.Fatalf("tool_use text %q, want %q", use.Text, want)
				}
				if res == nil || res.ToolName != call.Tool {
					t.Fatalf("tool_result for %s missing: %+v", call.ID, res)
				}
				_ = i
				matched := len(sc.Mock.ToolResults) == 0
				for _, r := range sc.Mock.ToolResults {
					// The mock saw the result as sent to the model, where Claude
					// Code may append a <system-reminder> block that the
					// transcript does not hold.
					want := r.ToolResult
					if i := strings.Index(want, "\n\n<system-reminder>"); i >= 0 {
						want = want[:i]
					}
					if want != "" && strings.Contains(res.Text, want) && (res.IsError == "true") == r.IsError {
						matched = true
					}
				}
				if !matched {
					t.Fatalf("result %q (is_error %s) matches no expected result", res.Text, res.IsError)
				}
			}
			if sc.Model != "" {
				found := false
				for _, e := range rows {
					if e.TurnType == timeline.System && strings.HasPrefix(e.Text, "model: ") && strings.HasSuffix(e.Text, sc.Model) {
						found = true
					}
				}
				if !found {
					t.Fatalf("no model row ending in %s", sc.Model)
				}
			}
		})
	}
}

// TestRealAgentSessionsRegistry parses the sessions/<pid>.json files the
// real run left.
func TestRealAgentSessionsRegistry(t *testing.T) {
	home, x := realRoot(t)
	matches, _ := filepath.Glob(filepath.Join(home, ".claude", "sessions", "*.json"))
	if len(matches) == 0 {
		t.Fatal("no .claude/sessions/<pid>.json in the real-agent fixture")
	}
	for _, m := range matches {
		var raw struct {
			PID       int64  `json:"pid"`
			SessionID string `json:"sessionId"`
			Kind      string `json:"kind"`
		}
		b, _ := os.ReadFile(m)
		_ = json.Unmarshal(b, &raw)
		orig := x.Home + "/.claude/sessions/" + filepath.Base(m)
		in := parsertest.Input(t, m, parser.File{Path: orig, Agent: Agent, Target: "sessions"}, nil)
		s := parsertest.Run(t, Sessions(), in)
		if len(s.Events) != 1 || s.Events[0].SessionID != raw.SessionID || s.Events[0].Time.IsZero() ||
			!strings.HasPrefix(s.Events[0].Text, "claude-code process "+strings.TrimSuffix(filepath.Base(m), ".json")+" "+raw.Kind+" ") {
			t.Fatalf("%s: %+v", m, s.Events)
		}
	}
}

// TestRealAgentRecordsAccounted: every record Claude Code 2.1.332 wrote in
// the fixture gives rows, a counted skip or a problem; the bookkeeping
// types new with it (api-request*, cost-state, tools-used, atis-latch,
// the prompt snapshot) are skips, not system rows (issue 18's examiner
// drowning in them), and no record becomes a generic "<type>: ..." row.
func TestRealAgentRecordsAccounted(t *testing.T) {
	home, x := realRoot(t)
	files := realFiles(t, home, x.Home)
	skips := map[string]int{}
	var generic []string
	for orig, local := range files {
		if !strings.Contains(orig, "/.claude/projects/") || !strings.HasSuffix(orig, ".jsonl") {
			continue
		}
		in := parsertest.Input(t, local, parser.File{Path: orig, Agent: Agent, Target: "projects"}, files)
		s := parsertest.Run(t, Transcript(), in)
		parsertest.Accounted(t, in, s)
		for k, n := range s.SkipCounts() {
			skips[k] += n
		}
		for _, e := range s.Events {
			if e.TurnType == timeline.System && len(e.Text) > 2000 {
				generic = append(generic, e.Text[:80])
			}
		}
	}
	want := map[string]int{
		"copy:api-request-blob": 28, "no_evidence:api-request": 25, "no_evidence:api-request-shape": 11,
		"no_evidence:atis-latch": 22, "no_evidence:cost-state": 9, "copy:tools-used": 11, "copy:last-prompt": 15,
		"no_evidence:attachment/prompt_snapshot": 21, "no_evidence:attachment/date": 11,
		"no_evidence:attachment/remote_session_change": 12, "no_evidence:attachment/total_tokens_reminder": 2,
	}
	if fmt.Sprint(skips) != fmt.Sprint(want) {
		t.Fatalf("skips %v\nwant  %v", skips, want)
	}
	if len(generic) != 0 {
		t.Fatalf("system rows over 2000 characters: %q", generic)
	}
}

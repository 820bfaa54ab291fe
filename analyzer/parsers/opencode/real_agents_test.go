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
	ExitCode  int    `json:"exit_code"`
	Mock      struct {
		ToolCalls []struct {
			Tool    string `json:"tool"`
			ID      string `json:"id"`
			Command string `json:"command"`
		} `json:"tool_calls"`
	} `json:"mock"`
}

// realRoot returns fixtures/roots/real-agents-2 (or $OPENCODE_REAL2_ROOT)
// and its expect.json (nil when absent).
func realRoot(t *testing.T) (string, map[string]json.RawMessage) {
	t.Helper()
	dir, _ := os.Getwd()
	roots := filepath.Join(dir, "..", "..", "..", "fixtures", "roots")
	root := filepath.Join(roots, "real-agents-2")
	if r := os.Getenv("OPENCODE_REAL2_ROOT"); r != "" {
		root = r
	}
	var m map[string]json.RawMessage
	b, err := os.ReadFile(filepath.Join(roots, "real-agents-2.expect.json"))
	if err != nil {
		t.Fatalf("real-agent fixture: %v", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return root, m
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
	for _, c := range []struct{ agent, glob, marker string }{
		{agentOpenCode, "home/*/.local/share/opencode/opencode*.db", "opencode"},
		{agentKilo, "home/*/.local/share/kilo/kilo*.db", "kilo"},
	} {
		t.Run(strings.ReplaceAll(c.agent, "-", "_"), func(t *testing.T) {
			dbs, _ := filepath.Glob(filepath.Join(root, c.glob))
			if len(dbs) == 0 {
				t.Fatalf("no %s store in %s", c.agent, root)
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
				// the carver describes the WAL's earlier generations (the
				// older versions of live records it finds there are
				// counted skips); nothing else
				if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 0: "+parser.KindWALState+": "+orig+"-wal: ") ||
					!strings.Contains(s.Problems[0], "(an earlier WAL generation: older page images); these were carved") {
					t.Errorf("%s problems: %v", orig, s.Problems)
				}
				all = append(all, s.Events...)
			}
			uses, results := map[string]timeline.Event{}, map[string]timeline.Event{}
			for _, e := range all {
				switch e.TurnType {
				case timeline.ToolUse:
					uses[e.ToolUseID] = e
				case timeline.ToolResult:
					results[e.ToolUseID] = e
				}
				if e.SessionID == "" && !strings.HasPrefix(e.Text, "project directory:") {
					t.Errorf("row without session: %+v", e)
				}
			}
			for id, r := range results {
				if _, ok := uses[id]; !ok {
					t.Errorf("result without call: %+v", r)
				}
			}
			byText := func(tt timeline.TurnType, text string) []timeline.Event {
				var out []timeline.Event
				for _, e := range all {
					if e.TurnType == tt && e.Text == text {
						out = append(out, e)
					}
				}
				return out
			}
			// the commands the generator's scripted model asks for
			m := c.marker
			basic := byText(timeline.ToolUse, "echo doubleagent-"+m+"-marker && date -u +%Y")
			if len(basic) != 1 || basic[0].ToolName != "bash" || basic[0].Model != "mock/mock-coder" || basic[0].ProjectPath != "/home/examiner2/demo" {
				t.Fatalf("basic call: %+v", basic)
			}
			if r := results[basic[0].ToolUseID]; r.IsError != "false" || !strings.HasPrefix(r.Text, "doubleagent-"+m+"-marker\n") || r.SessionID != basic[0].SessionID {
				t.Errorf("basic result: %+v", r)
			}
			if w := byText(timeline.ToolUse, "/home/examiner2/demo/"+m+"-notes.txt"); len(w) != 1 || w[0].ToolName != "write" || results[w[0].ToolUseID].Text != "Wrote file successfully." {
				t.Errorf("write call: %+v", w)
			}
			// the task prompt the parent's model wrote is the subagent's
			// first message: a system row, never user (issue 12)
			task := "Run the shell command `echo doubleagent-" + m + "-subagent` and tell me what it printed."
			if u := byText(timeline.User, task); len(u) != 0 {
				t.Fatalf("subagent task prompt as a user row: %+v", u)
			}
			sub := byText(timeline.System, "subagent task: "+task)
			if len(sub) != 1 {
				t.Fatalf("subagent task row: %+v", sub)
			}
			var parent string
			for _, e := range all {
				if strings.HasPrefix(e.Text, "subagent "+sub[0].SessionID+" of ") {
					parent = strings.TrimPrefix(e.Text, "subagent "+sub[0].SessionID+" of ")
				}
			}
			if parent == "" || parent == sub[0].SessionID || sub[0].ParentSessionID != parent {
				t.Errorf("no subagent row for %s (parent %q, row's parent %q)", sub[0].SessionID, parent, sub[0].ParentSessionID)
			}
			if sc := byText(timeline.ToolUse, "echo doubleagent-"+m+"-subagent"); len(sc) != 1 || sc[0].SessionID != sub[0].SessionID || sc[0].ParentSessionID != parent || sc[0].RecordID == "" {
				t.Errorf("subagent's call: %+v", sc)
			}
			for _, e := range all {
				if e.SessionID == sub[0].SessionID && e.ParentSessionID != parent {
					t.Errorf("subagent row without its parent session: %+v", e)
				}
			}
			// denied: a deny rule removed bash; OpenCode answers through its
			// "invalid" tool, Kilo with an error state
			for _, e := range all {
				if e.TurnType == timeline.ToolResult && strings.Contains(e.Text, "Model tried to call unavailable tool 'bash'") && e.IsError != "true" {
					t.Errorf("denied call not an error: %+v", e)
				}
			}
			if m := withTextIn(all, "model: "); len(m) == 0 || m[0].Text != "model: mock/mock-coder" {
				t.Errorf("model rows: %+v", m)
			}
			checkExpect(t, expect[c.agent], all, uses)
			t.Logf("%d rows from %d stores", len(all), len(dbs))
		})
	}
}

func withTextIn(all []timeline.Event, prefix string) []timeline.Event {
	var out []timeline.Event
	for _, e := range all {
		if strings.HasPrefix(e.Text, prefix) {
			out = append(out, e)
		}
	}
	return out
}

// checkExpect checks the scenarios real-agents-2.expect.json records for
// the agent, when it has them: each prompt is a dated user row of its
// session (the generator's quoting may wrap it in quotes), each mock call
// a tool_use with its command.
func checkExpect(t *testing.T, raw json.RawMessage, all []timeline.Event, uses map[string]timeline.Event) {
	t.Helper()
	var ex struct {
		Scenarios []realScenario `json:"scenarios"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &ex) != nil {
		t.Log("no expect.json scenarios for this agent yet")
		return
	}
	for _, sc := range ex.Scenarios {
		// the generator wrote some ids twice, newline-joined
		sc.SessionID = strings.SplitN(sc.SessionID, "\n", 2)[0]
		if sc.ExitCode != 0 && sc.ExitCode != 137 && len(sc.Mock.ToolCalls) == 0 {
			t.Logf("%s: run failed (exit %d), nothing to find", sc.Scenario, sc.ExitCode)
			continue
		}
		found := sc.Prompt == ""
		for _, e := range all {
			if e.TurnType == timeline.User && strings.Trim(strings.TrimSpace(e.Text), `"`) == strings.TrimSpace(sc.Prompt) && (sc.SessionID == "" || e.SessionID == sc.SessionID) {
				found = !e.Time.IsZero()
			}
		}
		if !found {
			t.Errorf("%s: prompt %q (session %s) not found", sc.Scenario, sc.Prompt, sc.SessionID)
		}
		for _, call := range sc.Mock.ToolCalls {
			u, ok := uses[call.ID]
			if !ok {
				t.Errorf("%s: call %s not found", sc.Scenario, call.ID)
				continue
			}
			if u.ToolName == "invalid" {
				// a call to a tool the deny rule removed: OpenCode keeps
				// only the tool's name
				if u.Text != call.Tool {
					t.Errorf("%s: invalid call %s names %q, want %q", sc.Scenario, call.ID, u.Text, call.Tool)
				}
				continue
			}
			if call.Tool == "task" {
				if u.ToolName != "task" {
					t.Errorf("%s: call %s is %q, want task", sc.Scenario, call.ID, u.ToolName)
				}
				continue // its command is the subagent's
			}
			if call.Command != "" && u.Text != call.Command {
				t.Errorf("%s: call %s text %q, want %q", sc.Scenario, call.ID, u.Text, call.Command)
			}
		}
	}
}

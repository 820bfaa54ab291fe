package qwen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const realUserHome = "/home/examiner2"

// realHome returns the real-agent fixture home written by Qwen Code 0.24.4
// against a loopback model; a missing fixture fails.
func realHome(t *testing.T) string {
	t.Helper()
	fx := parsertest.RealAgentFixture(t, "real-agents-2", "qwen-code")
	fx.Glob(t, ".qwen/projects")
	return fx.Home
}

type realScenario struct {
	Scenario  string `json:"scenario"`
	SessionID string `json:"session_id"`
	Prompt    string `json:"prompt"`
	Command   string `json:"command"`
	Started   string `json:"started_utc"`
	Ended     string `json:"ended_utc"`
	Model     string `json:"model"`
	FilePath  string `json:"file_path"`
	Denied    bool   `json:"tool_denied"`
	Mock      struct {
		ToolCalls []struct {
			Tool    string `json:"tool"`
			ID      string `json:"id"`
			Command string `json:"command"`
			Path    string `json:"path"`
			Prompt  string `json:"subagent_prompt"`
		} `json:"tool_calls"`
		ToolResults []struct {
			ToolResult string `json:"tool_result"`
		} `json:"tool_results"`
		Stalled bool `json:"stalled"`
	} `json:"mock"`
}

func realScenarios(t *testing.T, dir string) (string, []realScenario) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "..", "..", "..", "real-agents-2.expect.json"))
	if err != nil {
		t.Fatalf("real-agents-2.expect.json: %v", err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var q struct {
		Version   string         `json:"version"`
		Scenarios []realScenario `json:"scenarios"`
	}
	if err := json.Unmarshal(all["qwen-code"], &q); err != nil || len(q.Scenarios) == 0 {
		t.Fatalf("no qwen-code scenarios in real-agents-2.expect.json: %v", err)
	}
	return q.Version, q.Scenarios
}

// realRun parses one real file (local, under dir) as its original path.
func realRun(t *testing.T, id, target, dir, local string) *parsertest.Sink {
	t.Helper()
	rel, _ := filepath.Rel(dir, local)
	f := parser.File{Path: realUserHome + "/" + filepath.ToSlash(rel), Rel: filepath.ToSlash(rel), Agent: Agent, Target: target}
	if st, err := os.Stat(local); err == nil {
		f.MTime = st.ModTime().UTC()
	}
	in := parsertest.Input(t, local, f, nil)
	s := parsertest.Run(t, byID(t, id), in)
	if strings.HasSuffix(local, ".jsonl") {
		parsertest.Accounted(t, in, s) // every record the real agent wrote: rows or a skip
	}
	if len(s.Problems) != 0 {
		t.Errorf("%s: problems %v", rel, s.Problems)
	}
	return s
}

func within(t *testing.T, e timeline.Event, sc realScenario) {
	t.Helper()
	from, to := parsertest.Time(t, sc.Started), parsertest.Time(t, sc.Ended)
	if e.Time.Before(from) || e.Time.After(to) {
		t.Errorf("%s: %s row %q at %v outside the run %v..%v", sc.Scenario, e.TurnType, e.Text, e.Time, from, to)
	}
	if e.TimeBasis != timeline.TimeRecorded {
		t.Errorf("%s: %s row time basis %q", sc.Scenario, e.TurnType, e.TimeBasis)
	}
}

func rows(s *parsertest.Sink, tt timeline.TurnType) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt {
			out = append(out, e)
		}
	}
	return out
}

// pair returns the tool_use and tool_result rows of call id (t.Errorf if
// either is missing or not unique).
func pair(t *testing.T, s *parsertest.Sink, id string) (use, res timeline.Event) {
	t.Helper()
	var uses, results []timeline.Event
	for _, e := range s.Events {
		if e.ToolUseID != id {
			continue
		}
		switch e.TurnType {
		case timeline.ToolUse:
			uses = append(uses, e)
		case timeline.ToolResult:
			results = append(results, e)
		}
	}
	if len(uses) != 1 || len(results) != 1 {
		t.Errorf("call %s: %d tool_use and %d tool_result rows, want 1 and 1", id, len(uses), len(results))
		return timeline.Event{}, timeline.Event{}
	}
	return uses[0], results[0]
}

// TestRealAgentChat checks every scenario the real Qwen Code 0.24.4 ran:
// the typed prompt as the session's user row inside the run, each mocked
// call as a tool_use (its command or path) and a tool_result linked by the
// call id holding the output the agent sent back, the resume's model
// change, the denied call's error, the subagent's own transcript, and the
// killed run's lone prompt.
func TestRealAgentChat(t *testing.T) {
	dir := realHome(t)
	version, scenarios := realScenarios(t, dir)
	if version != "0.24.4" {
		t.Logf("fixture written by Qwen Code %s (tests written against 0.24.4)", version)
	}
	chats := filepath.Join(dir, ".qwen", "projects", "-home-examiner2-demo", "chats")
	for _, sc := range scenarios {
		t.Run(strings.ReplaceAll(sc.Scenario, "-", "_"), func(t *testing.T) {
			s := realRun(t, "qwen-code/chat", "chats", dir, filepath.Join(chats, sc.SessionID+".jsonl"))
			for _, e := range s.Events {
				if e.SessionID != sc.SessionID {
					t.Fatalf("row %q with session %q, want %q", e.Text, e.SessionID, sc.SessionID)
				}
				if e.ProjectPath != "/home/examiner2/demo" {
					t.Fatalf("row %q with project %q", e.Text, e.ProjectPath)
				}
			}
			var prompt *timeline.Event
			for i, e := range rows(s, timeline.User) {
				if e.Text == sc.Prompt {
					prompt = &rows(s, timeline.User)[i]
				}
			}
			if prompt == nil {
				t.Fatalf("no user row %q; user rows %v", sc.Prompt, rows(s, timeline.User))
			}
			within(t, *prompt, sc)

			if sc.Mock.Stalled {
				if n := len(s.Events); n != 1 {
					t.Errorf("killed run: %d rows, want only the prompt: %v", n, s.Events)
				}
				return
			}
			for i, call := range sc.Mock.ToolCalls {
				if sc.Scenario == "subagent" && call.Tool != "agent" {
					continue // the subagent's own call: TestRealAgentSubagent
				}
				use, res := pair(t, s, call.ID)
				within(t, use, sc)
				within(t, res, sc)
				if use.ToolName != call.Tool {
					t.Errorf("call %s: tool %q, want %q", call.ID, use.ToolName, call.Tool)
				}
				want := call.Command
				switch {
				case call.Path != "":
					want = call.Path
				case call.Prompt != "":
					want = call.Prompt
				}
				if use.Text != want {
					t.Errorf("call %s: text %q, want %q", call.ID, use.Text, want)
				}
				if use.ToolInput == "" || use.Model == "" {
					t.Errorf("call %s: tool_input %q model %q", call.ID, use.ToolInput, use.Model)
				}
				wantRes := sc.Mock.ToolResults[i].ToolResult
				if sc.Scenario == "subagent" {
					wantRes = sc.Mock.ToolResults[len(sc.Mock.ToolResults)-1].ToolResult
				}
				if res.Text != wantRes {
					t.Errorf("call %s: result %q, want %q", call.ID, res.Text, wantRes)
				}
				if wantErr := strconv.FormatBool(sc.Denied); res.IsError != wantErr {
					t.Errorf("call %s: is_error %q, want %q", call.ID, res.IsError, wantErr)
				}
			}
			if len(rows(s, timeline.Assistant)) == 0 {
				t.Errorf("no assistant row")
			}
			if sc.Model != "" {
				var change bool
				for _, e := range rows(s, timeline.System) {
					if e.Text == "model: qwen3-coder-plus -> "+sc.Model {
						change = true
						within(t, e, sc)
					}
				}
				if !change {
					t.Errorf("no model change row to %s: %v", sc.Model, rows(s, timeline.System))
				}
				for _, e := range rows(s, timeline.Assistant) {
					if e.Time.After(parsertest.Time(t, sc.Started)) && e.Model != sc.Model {
						t.Errorf("assistant row after the resume with model %q", e.Model)
					}
				}
			}
		})
	}
}

// TestRealAgentSubagent reads the subagent transcript the real run left in
// projects/<slug>/subagents/<session>/ (not yet a catalog target): the
// delegated prompt, the shell call and its output linked by id, under the
// subagent's own id, opened by its link to the parent session.
func TestRealAgentSubagent(t *testing.T) {
	dir := realHome(t)
	_, scenarios := realScenarios(t, dir)
	for _, sc := range scenarios {
		if sc.Scenario != "subagent" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, ".qwen", "projects", "*", "subagents", sc.SessionID, "agent-*.jsonl"))
		if len(files) != 1 {
			t.Fatalf("subagent files %v", files)
		}
		s := realRun(t, "qwen-code/chat", "chats", dir, files[0])
		agentID := "general-purpose-" + sc.Mock.ToolCalls[0].ID
		sys := rows(s, timeline.System)
		if len(sys) == 0 || sys[0].Text != "subagent "+agentID+" of "+sc.SessionID {
			t.Errorf("first system rows %v", sys)
		}
		for _, e := range s.Events {
			if e.SessionID != agentID || e.ParentSessionID != sc.SessionID {
				t.Errorf("row %q with session %q parent %q", e.Text, e.SessionID, e.ParentSessionID)
			}
		}
		// Issue 12: the prompt the parent's model wrote (the agent call's
		// prompt) is the subagent's task, a system row, never a user row.
		if u := rows(s, timeline.User); len(u) != 0 {
			t.Errorf("user rows %v, want none", u)
		}
		if len(sys) < 2 || sys[1].Text != "subagent task: "+sc.Mock.ToolCalls[0].Prompt || sys[1].SourceLine != 1 ||
			sys[1].RecordID != "63ad2dc9-2741-474f-afce-c09fb585297d" {
			t.Errorf("subagent task row %+v", sys)
		}
		if len(s.States) != 1 || s.States[0].Key.SessionID != agentID || s.States[0].ParentSessionID != sc.SessionID {
			t.Errorf("subagent session state %+v", s.States)
		}
		call := sc.Mock.ToolCalls[1]
		use, res := pair(t, s, call.ID)
		if use.Text != call.Command || use.ToolName != "run_shell_command" {
			t.Errorf("subagent call %q %q", use.ToolName, use.Text)
		}
		if res.Text != sc.Mock.ToolResults[0].ToolResult || res.IsError != "false" {
			t.Errorf("subagent result %q %q", res.Text, res.IsError)
		}
		within(t, use, sc)
		within(t, res, sc)
		return
	}
	t.Fatal("no subagent scenario in real-agents-2.expect.json")
}

// TestRealAgentUsage: usage_record.jsonl names every finished session
// (the killed one never wrote its summary) at its end time.
func TestRealAgentUsage(t *testing.T) {
	dir := realHome(t)
	_, scenarios := realScenarios(t, dir)
	s := realRun(t, "qwen-code/usage", "usage", dir, filepath.Join(dir, ".qwen", "usage_record.jsonl"))
	bySession := map[string][]timeline.Event{}
	for _, e := range s.Events {
		if !e.Secondary || e.ProjectPath != "/home/examiner2/demo" || !strings.HasPrefix(e.Text, "session usage: ") {
			t.Errorf("usage row %+v", e)
		}
		bySession[e.SessionID] = append(bySession[e.SessionID], e)
	}
	for _, sc := range scenarios {
		got := bySession[sc.SessionID]
		if sc.Mock.Stalled {
			if len(got) != 0 {
				t.Errorf("%s: killed session has usage rows %v", sc.Scenario, got)
			}
			continue
		}
		if len(got) == 0 {
			t.Errorf("%s: no usage row for %s", sc.Scenario, sc.SessionID)
			continue
		}
	}
	basic := bySession[scenarios[0].SessionID]
	if len(basic) != 2 {
		t.Fatalf("basic+resume session: %d usage rows, want 2", len(basic))
	}
	within(t, basic[0], scenarios[0]) // written as the first run ends
	within(t, basic[1], scenarios[1]) // and again as the resumed run ends
	if !strings.Contains(basic[1].Text, "model qwen3-coder-flash requests=2") ||
		!strings.Contains(basic[1].Text, "tools calls=2 success=2 fail=0 (run_shell_command=2)") {
		t.Errorf("resumed usage row %q", basic[1].Text)
	}
}

// TestRealAgentSettings: the run's settings.json holds only the auth type,
// which is not a permission key: no row and no problem.
func TestRealAgentSettings(t *testing.T) {
	dir := realHome(t)
	s := realRun(t, "qwen-code/settings", "settings", dir, filepath.Join(dir, ".qwen", "settings.json"))
	if len(s.Events) != 0 {
		t.Errorf("rows from settings.json without permission keys: %v", s.Events)
	}
}

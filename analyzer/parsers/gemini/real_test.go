package gemini

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

// realHome returns the real-agent fixture home (written by Gemini CLI
// 0.61.0 against a loopback model); a missing fixture fails.
func realHome(t *testing.T) string {
	t.Helper()
	fx := parsertest.RealAgentFixture(t, "real-agents", "gemini-cli")
	fx.Glob(t, ".gemini/tmp")
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

// realScenarios reads the Gemini CLI scenarios of real-agents.expect.json.
func realScenarios(t *testing.T, dir string) (version string, sc []realScenario) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "..", "..", "..", "real-agents.expect.json"))
	if err != nil {
		t.Fatalf("real-agents.expect.json: %v", err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var g struct {
		Version   string         `json:"version"`
		Scenarios []realScenario `json:"scenarios"`
	}
	if err := json.Unmarshal(all["gemini-cli"], &g); err != nil || len(g.Scenarios) == 0 {
		t.Fatalf("no gemini-cli scenarios in real-agents.expect.json: %v", err)
	}
	return g.Version, g.Scenarios
}

// realRun parses one real chat file (local) as its original path.
func realRun(t *testing.T, dir, local string) *parsertest.Sink {
	t.Helper()
	rel, _ := filepath.Rel(dir, local)
	f := parser.File{Path: "/home/examiner/" + filepath.ToSlash(rel), Agent: Agent, Target: "chats"}
	related := parsertest.Files{
		"/home/examiner/.gemini/tmp/demo/.project_root": filepath.Join(dir, ".gemini", "tmp", "demo", ".project_root"),
		"/home/examiner/.gemini/projects.json":          filepath.Join(dir, ".gemini", "projects.json"),
	}
	in := parsertest.Input(t, local, f, related)
	all := parsertest.Run(t, byID(t, "gemini-cli/chat"), in)
	parsertest.Accounted(t, in, all) // every line of the real op-log: rows or a skip
	// The first-hand rows: a $set batch's copies are rows marked
	// Replayed, which the identity merge writes only where they differ
	// (TestEngineHistorySyncCopies); the tests read what stays.
	s := &parsertest.Sink{Problems: all.Problems, Skips: all.Skips, States: all.States}
	for _, e := range all.Events {
		if !e.Replayed {
			s.Events = append(s.Events, e)
		}
	}
	if len(s.Problems) != 0 {
		t.Errorf("%s: problems %v", rel, s.Problems)
	}
	for _, e := range s.Events {
		if e.ProjectPath != "/home/examiner/demo" {
			t.Fatalf("%s: row with project %q", rel, e.ProjectPath)
		}
	}
	return s
}

// sessionFile finds the top-level chat file whose metadata names id.
func sessionFile(t *testing.T, dir, id string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
	for _, f := range files {
		if strings.HasSuffix(f, "-"+id[:8]+".jsonl") {
			return f
		}
	}
	t.Fatalf("no chat file for session %s", id)
	return ""
}

func within(t *testing.T, e timeline.Event, sc realScenario) {
	t.Helper()
	from, to := parsertest.Time(t, sc.Started), parsertest.Time(t, sc.Ended)
	if e.Time.Before(from) || e.Time.After(to) {
		t.Errorf("%s: %s row at %v outside the run %v..%v", sc.Scenario, e.TurnType, e.Time, from, to)
	}
}

// TestRealAgentChat checks every scenario the real Gemini CLI ran against
// the rows: the prompt as the one user row it typed (at a time inside the
// run), each mocked tool call as a tool_use/tool_result pair linked by the
// call id, the resume's model change, the subagent's own file.
func TestRealAgentChat(t *testing.T) {
	dir := realHome(t)
	version, scenarios := realScenarios(t, dir)
	if version != "0.61.0" {
		t.Logf("fixture written by Gemini CLI %s (tests written against 0.61.0)", version)
	}
	seen := map[string]bool{}
	for _, sc := range scenarios {
		t.Run(sc.Scenario, func(t *testing.T) {
			s := realRun(t, dir, sessionFile(t, dir, sc.SessionID))
			for _, e := range s.Events {
				if e.SessionID != sc.SessionID {
					t.Fatalf("row with session %q, want %s", e.SessionID, sc.SessionID)
				}
			}
			ctx := find(s, timeline.System, "<session_context>")
			if len(ctx) == 0 || !strings.Contains(ctx[0].Text, "/home/examiner/demo") {
				t.Errorf("no injected <session_context> system row")
			}
			u := one(t, s, timeline.User, sc.Prompt)
			if u.Text != sc.Prompt {
				t.Errorf("prompt %q, want %q", u.Text, sc.Prompt)
			}
			within(t, u, sc)
			if !seen[sc.SessionID] {
				// The first gemini message names the model.
				if m := find(s, timeline.System, "model: "); len(m) > 0 && m[0].Text != "model: gemini-3.8-flash" {
					t.Errorf("first model row %q", m[0].Text)
				}
			}
			seen[sc.SessionID] = true
			if sc.Model != "" {
				one(t, s, timeline.System, "-> "+sc.Model)
			}
			for i, mc := range sc.Mock.ToolCalls {
				if sc.Scenario == "subagent" && mc.Tool != "invoke_agent" {
					continue // in the subagent's own file, checked below
				}
				var use *timeline.Event
				for j := range s.Events {
					e := &s.Events[j]
					if e.TurnType == timeline.ToolUse && strings.HasSuffix(e.ToolUseID, mc.ID) {
						use = e
					}
				}
				if use == nil {
					t.Fatalf("no tool_use for mock call %s", mc.ID)
				}
				if use.ToolName != mc.Tool || use.Model == "" {
					t.Errorf("tool_use %+v, want tool %s", use, mc.Tool)
				}
				switch {
				case mc.Tool == "run_shell_command" && use.Text != mc.Command:
					t.Errorf("tool_use text %q, want command %q", use.Text, mc.Command)
				case mc.Path != "" && use.Text != mc.Path:
					t.Errorf("tool_use text %q, want path %q", use.Text, mc.Path)
				}
				within(t, *use, sc)
				var res []timeline.Event
				for _, e := range s.Events {
					if e.TurnType == timeline.ToolResult && e.ToolUseID == use.ToolUseID {
						res = append(res, e)
					}
				}
				if len(res) != 1 {
					t.Fatalf("%d tool_result rows for %s, want 1", len(res), use.ToolUseID)
				}
				if i < len(sc.Mock.ToolResults) {
					want := sc.Mock.ToolResults[i]
					if res[0].Text != want.ToolResult || res[0].IsError != boolStr(want.IsError) {
						t.Errorf("tool_result %q is_error %s, want %q %v", res[0].Text, res[0].IsError, want.ToolResult, want.IsError)
					}
				}
				within(t, res[0], sc)
			}
			if len(sc.Mock.ToolCalls) == 0 && len(find(s, timeline.ToolUse, "")) != 0 {
				t.Error("tool_use rows in a run that made no call")
			}
			if sc.Scenario == "subagent" {
				subs, _ := filepath.Glob(filepath.Join(dir, ".gemini", "tmp", "*", "chats", sc.SessionID, "*.jsonl"))
				if len(subs) != 1 {
					t.Fatalf("%d subagent files under chats/%s", len(subs), sc.SessionID)
				}
				id := strings.TrimSuffix(filepath.Base(subs[0]), ".jsonl")
				ss := realRun(t, dir, subs[0])
				row := one(t, ss, timeline.System, "subagent "+id+" of ")
				if row.Text != "subagent "+id+" of "+sc.SessionID || row.SessionID != id || row.SourceLine != 1 || row.RecordID != id+"#subagent" {
					t.Errorf("subagent row %+v", row)
				}
				// Issue 12: the prompt the parent's model wrote (the
				// invoke_agent call's prompt) is the subagent's task, a
				// system row, never a user row; every row carries the
				// subagent's own session and the parent's.
				var invoke timeline.Event
				for _, e := range s.Events {
					if e.TurnType == timeline.ToolUse && e.ToolName == "invoke_agent" {
						invoke = e
					}
				}
				var args struct {
					Prompt string `json:"prompt"`
				}
				if err := json.Unmarshal([]byte(invoke.ToolInput), &args); err != nil || args.Prompt == "" {
					t.Fatalf("invoke_agent input %q", invoke.ToolInput)
				}
				task := one(t, ss, timeline.System, "subagent task: ")
				if task.Text != "subagent task: "+args.Prompt || task.SourceLine != 2 || task.RecordID != id+":0b94fb6c-a7ed-4cde-8af1-9bdef690738c" {
					t.Errorf("subagent task row %+v", task)
				}
				if n := len(find(ss, timeline.User, "")); n != 0 {
					t.Errorf("%d user rows in the subagent's file, want 0", n)
				}
				for _, e := range ss.Events {
					if e.SessionID != id || e.ParentSessionID != sc.SessionID {
						t.Fatalf("subagent row with session %q parent %q", e.SessionID, e.ParentSessionID)
					}
				}
				if len(ss.States) != 1 || ss.States[0].ParentSessionID != sc.SessionID || ss.States[0].Key.SessionID != id {
					t.Errorf("subagent session state %+v", ss.States)
				}
				for _, mc := range sc.Mock.ToolCalls[1:] {
					var ok bool
					for _, e := range ss.Events {
						ok = ok || (e.TurnType == timeline.ToolUse && strings.HasSuffix(e.ToolUseID, mc.ID) && e.ToolName == mc.Tool)
					}
					if !ok {
						t.Errorf("subagent file: no tool_use for %s %s", mc.Tool, mc.ID)
					}
				}
				if mc := sc.Mock.ToolCalls[1]; mc.Command != "" {
					if e := one(t, ss, timeline.ToolUse, mc.Command); e.ToolName != "run_shell_command" {
						t.Errorf("subagent shell call %+v", e)
					}
				}
			}
		})
	}
}

// TestRealAgentResume pins the resumed session's file: the second run's
// $set messages batch re-dates every earlier message to the resume time and
// drops their toolCalls; the rows keep the first-hand records.
func TestRealAgentResume(t *testing.T) {
	dir := realHome(t)
	_, scenarios := realScenarios(t, dir)
	var basic, resume *realScenario
	for i := range scenarios {
		switch scenarios[i].Scenario {
		case "basic":
			basic = &scenarios[i]
		case "resume":
			resume = &scenarios[i]
		}
	}
	if basic == nil || resume == nil || basic.SessionID != resume.SessionID {
		t.Fatal("real-agents.expect.json has no resume of the basic gemini-cli session")
	}
	s := realRun(t, dir, sessionFile(t, dir, basic.SessionID))
	u := one(t, s, timeline.User, basic.Prompt)
	within(t, u, *basic) // not the resume time the batch copy carries
	use := one(t, s, timeline.ToolUse, basic.Command)
	within(t, use, *basic)
	if use.ToolName != "run_shell_command" || use.Model != "gemini-3.8-flash" {
		t.Errorf("first run's call: %+v", use)
	}
	within(t, one(t, s, timeline.User, resume.Prompt), *resume)
	if n := len(find(s, timeline.User, "")); n != 2 {
		t.Errorf("%d user rows, want 2 (one per run)", n)
	}
	if m := one(t, s, timeline.System, "->"); m.Text != "model: gemini-3.8-flash -> "+resume.Model {
		t.Errorf("model change %q", m.Text)
	}
}

func TestRealAgentSettings(t *testing.T) {
	dir := realHome(t)
	local := filepath.Join(dir, ".gemini", "settings.json")
	if _, err := os.Stat(local); err != nil {
		t.Fatalf("no settings.json in the real-agent fixture: %v", err)
	}
	mt := parsertest.Time(t, "2026-11-29T17:49:31Z")
	f := parser.File{Path: "/home/examiner/.gemini/settings.json", Agent: Agent, Target: "settings", MTime: mt}
	s := parsertest.Run(t, byID(t, "gemini-cli/settings"), parsertest.Input(t, local, f, nil))
	e := one(t, s, timeline.System, "security.auth.selectedType")
	if e.Text != "permission setting: security.auth.selectedType=gemini-api-key (from /home/examiner/.gemini/settings.json, file mtime)" ||
		!e.Time.Equal(mt) || e.TimeBasis != timeline.TimeFileMTime {
		t.Errorf("settings row: %+v", e)
	}
}

// TestRealSamples reads the legacy sessions of mischa-thisness/M-Gemini.
func TestRealSamples(t *testing.T) {
	dir := parsertest.SharedSamples(t, "gemini-cli/M-Gemini")
	p := byID(t, "gemini-cli/chat")
	run := func(name string) *parsertest.Sink {
		f := parser.File{Path: "/home/u/.gemini/tmp/86bc0e27/chats/" + name, Agent: Agent, Target: "chats"}
		s := parsertest.Run(t, p, parsertest.Input(t, filepath.Join(dir, name), f, nil))
		if len(s.Problems) != 0 {
			t.Errorf("%s: problems %v", name, s.Problems)
		}
		return s
	}
	// One session split over two files keeps its id in both.
	const split = "a1c91f1a-1a8b-4f17-96c8-ce5d4b9163a5"
	a := run("session-2025-12-30T07-24-a1c91f1a.json")
	b := run("session-2025-12-30T07-44-a1c91f1a.json")
	for _, s := range []*parsertest.Sink{a, b} {
		if len(s.Events) == 0 {
			t.Fatal("no rows")
		}
		for _, e := range s.Events {
			if e.SessionID != split {
				t.Fatalf("session %q, want %s", e.SessionID, split)
			}
		}
	}
	u := a.Events[0]
	if u.TurnType != timeline.User || !strings.HasPrefix(u.Text, "how to change qt-based gui apps") ||
		!u.Time.Equal(parsertest.Time(t, "2025-12-30T07:25:51.744Z")) || u.SourceLine != 1 {
		t.Errorf("first row: %+v", u)
	}
	const call = "read_file-1767079562087-c598fb4e77ce8"
	var use, res *timeline.Event
	for i := range a.Events {
		e := &a.Events[i]
		if e.ToolUseID == call && e.TurnType == timeline.ToolUse {
			use = e
		}
		if e.ToolUseID == call && e.TurnType == timeline.ToolResult {
			res = e
		}
	}
	if use == nil || res == nil {
		t.Fatalf("call %s: tool_use %v tool_result %v", call, use, res)
	}
	if use.Text != ".config/kdeglobals" || use.ToolInput != `{"file_path":".config/kdeglobals","limit":50}` ||
		use.Model != "gemini-3-pro-preview" || !use.Time.Equal(parsertest.Time(t, "2025-12-30T07:26:02.108Z")) || use.SourceLine != 2 {
		t.Errorf("tool_use: %+v", use)
	}
	if !strings.Contains(res.Text, "Showing lines 1-50 of 158 total lines") || res.IsError != "false" ||
		!res.Time.Equal(parsertest.Time(t, "2025-12-30T07:26:02.134Z")) {
		t.Errorf("tool_result: %+v", res)
	}
	th := one(t, a, timeline.Thinking, "Considering the Environment")
	if !th.Time.Equal(parsertest.Time(t, "2025-12-30T07:25:56.370Z")) {
		t.Errorf("thought time %v", th.Time)
	}
	one(t, a, timeline.System, "model: gemini-3-pro-preview -> gemini-3-flash-preview")

	e := run("session-2025-12-20T05-22-34e0660b.json")
	if len(e.Events) != 1 || e.Events[0].Text != "error: Automatic update failed. Please try updating manually" ||
		e.Events[0].TurnType != timeline.System || e.Events[0].SessionID != "34e0660b-7b9c-42a7-89ce-eaebbb035670" ||
		!e.Events[0].Time.Equal(parsertest.Time(t, "2025-12-20T05:23:15.944Z")) {
		t.Errorf("error-only session: %+v", e.Events)
	}
	c := run("session-2026-01-10T01-33-08d1e5f6.json")
	if len(find(c, timeline.User, "")) == 0 || len(find(c, timeline.Assistant, "")) == 0 {
		t.Error("08d1e5f6: no user or assistant rows")
	}
}

package windsurf

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const transcriptsDir = home + "/.windsurf/transcripts"

func runTranscript(t *testing.T, name, traj string) *parsertest.Sink {
	t.Helper()
	in := input(t, filepath.Join("testdata", "transcripts", name+".jsonl"), transcriptsDir+"/"+traj+".jsonl", "hook-transcripts")
	return parsertest.Run(t, byID(t, "windsurf/hook-transcript"), in)
}

func TestHookTranscriptGolden(t *testing.T) {
	p := byID(t, "windsurf/hook-transcript")
	for _, name := range []string{"typical", "tools", "empty", "malformed"} {
		t.Run(name, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", "transcripts", name+".jsonl"), transcriptsDir+"/traj-"+name+".jsonl", "hook-transcripts")
			parsertest.Golden(t, p, in, filepath.Join("testdata", "transcripts", name+".golden.jsonl"))
		})
	}
}

// TestHookTranscriptDocumented reads the example of the Cascade Hooks
// page (docs.windsurf.com/windsurf/cascade/hooks) line for line.
func TestHookTranscriptDocumented(t *testing.T) {
	s := runTranscript(t, "typical", "c8e1f2a0-traj")
	u := one(t, s, timeline.User, "create a hello world file")
	if u.SessionID != "c8e1f2a0-traj" || u.SourceLine != 1 || u.TimeBasis != timeline.TimeNone {
		t.Errorf("user row: %+v", u)
	}
	if r := one(t, s, timeline.System, "rules applied: always_on=my-rule.md"); r.SourceLine != 1 {
		t.Errorf("rules row line %d", r.SourceLine)
	}
	one(t, s, timeline.Assistant, "I'll create a hello world file for you.")
	one(t, s, timeline.Assistant, "I created the file for you.")
	use := one(t, s, timeline.ToolUse, "/path/to/file.py")
	if use.ToolName != "code_action" || use.ToolUseID != "line:3" ||
		use.ToolInput != `{"new_content":"print('hello world')\n","path":"/path/to/file.py"}` {
		t.Errorf("code_action: %+v", use)
	}
	res := one(t, s, timeline.ToolResult, "status: done")
	if res.ToolUseID != use.ToolUseID || res.IsError != "false" {
		t.Errorf("code_action result: %+v", res)
	}
	// Record ids "<trajectory>:<line>#<k>": the same in every rewrite of
	// the file; the summary row has none (its counts change).
	if use.RecordID != "c8e1f2a0-traj:3#0" || res.RecordID != "c8e1f2a0-traj:3#1" || u.RecordID != "c8e1f2a0-traj:1#0" {
		t.Errorf("record ids: %q %q %q", use.RecordID, res.RecordID, u.RecordID)
	}
	sum := one(t, s, timeline.System, "cascade hook transcript: 4 steps, 1 user inputs (file mtime: written after the latest response)")
	if sum.TimeBasis != timeline.TimeFileMTime || !sum.Time.Equal(fixedMTime) || sum.SessionID != "c8e1f2a0-traj" || sum.RecordID != "" {
		t.Errorf("summary row: %+v", sum)
	}
	if len(s.Problems) != 0 || len(s.Events) != 7 {
		t.Errorf("problems %v, %d rows:\n%s", s.Problems, len(s.Events), parsertest.Render(s))
	}
}

func TestHookTranscriptTools(t *testing.T) {
	s := runTranscript(t, "tools", "traj-tools")
	u := one(t, s, timeline.User, "run the tests and check the status tool")
	if u.TimeBasis != timeline.TimeRecorded || !u.Time.Equal(parsertest.Time(t, "2026-01-02T09:00:00Z")) {
		t.Errorf("user time %v %q", u.Time, u.TimeBasis)
	}
	th := one(t, s, timeline.Thinking, "The user wants the test suite run first.")
	if th.TimeBasis != timeline.TimeInherited || !th.Time.Equal(u.Time) {
		t.Errorf("thinking inherits the last recorded time: %v %q", th.Time, th.TimeBasis)
	}
	run := one(t, s, timeline.ToolUse, "go test ./...")
	if run.ToolName != "run_command" || run.ToolInput != `{"command_line":"go test ./...","cwd":"/home/examiner/demo"}` {
		t.Errorf("run_command: %+v", run)
	}
	r := one(t, s, timeline.ToolResult, "ok  demo 0.01s\nexit code 0")
	if r.ToolUseID != run.ToolUseID || r.ToolUseID != "line:3" || r.IsError != "false" {
		t.Errorf("run_command result: %+v", r)
	}
	g := one(t, s, timeline.ToolUse, "TODO")
	gr := one(t, s, timeline.ToolResult, "search path not found")
	if g.ToolName != "grep_search" || gr.IsError != "true" || gr.ToolUseID != g.ToolUseID {
		t.Errorf("grep_search: %+v / %+v", g, gr)
	}
	m := one(t, s, timeline.ToolUse, "mom/mom_status")
	if m.ToolName != "mcp_tool" || m.ToolInput != `{"verbose":true}` {
		t.Errorf("mcp_tool: %+v", m)
	}
	one(t, s, timeline.ToolResult, "all green")
	// A running command has no outcome yet: a call, no result.
	sl := one(t, s, timeline.ToolUse, "sleep 100")
	for _, e := range s.Events {
		if e.TurnType == timeline.ToolResult && e.ToolUseID == sl.ToolUseID {
			t.Errorf("result row for a running step: %+v", e)
		}
	}
	cp := one(t, s, timeline.System, `step checkpoint (status done): {"summary":"conversation summarised at step 7"}`)
	if !cp.Time.Equal(parsertest.Time(t, "2026-01-02T09:05:00Z")) || cp.TimeBasis != timeline.TimeRecorded {
		t.Errorf("checkpoint time %v %q", cp.Time, cp.TimeBasis)
	}
	one(t, s, timeline.System, "step error_message (status done)")
	for _, e := range s.Events {
		if e.TurnType == timeline.User && !strings.HasPrefix(e.Text, "run the tests") {
			t.Errorf("unexpected user row %q", e.Text)
		}
	}
}

func TestHookTranscriptMalformed(t *testing.T) {
	s := runTranscript(t, "malformed", "traj-bad")
	one(t, s, timeline.Assistant, "glued after a cut")
	u := one(t, s, timeline.User, "last line, no newline")
	if u.SourceLine != 5 {
		t.Errorf("last line at %d", u.SourceLine)
	}
	want := []string{
		"line 1: malformed JSON line (cut short or corrupt), skipped",
		"line 2: step has no type",
		"line 3: glued_record: cut record glued to the next record on one line; kept 1 complete record(s)",
		"line 4: step is not a JSON object",
	}
	if len(s.Problems) != len(want) {
		t.Fatalf("problems %q", s.Problems)
	}
	for i, w := range want {
		if !strings.HasPrefix(s.Problems[i], w) {
			t.Errorf("problem %d = %q, want prefix %q", i, s.Problems[i], w)
		}
	}
}

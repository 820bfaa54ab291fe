package augment

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

var mtime = time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)

const home = "/home/examiner5/"

var byID = parsertest.IDs(Parsers())

func input(t *testing.T, file, rel, target string, related parsertest.Files) *parser.Input {
	return parsertest.Input(t, "testdata/"+file, parser.File{Path: home + rel, Rel: rel, Agent: Agent, Target: target, MTime: mtime}, related)
}

func TestGolden(t *testing.T) {
	for _, c := range []struct{ id, file, rel, target string }{
		{"augment/session", "real-resume.json", ".augment/sessions/cad97a7b-53f0-48e4-b490-d1fb0415eac9.json", "sessions"},
		{"augment/session", "real-denied.json", ".augment/sessions/b20d05b6-83bb-4606-b3cd-9369226dbb42.json", "sessions"},
		{"augment/session", "quirks.json", ".augment/sessions/sub-1.json", "sessions"},
		{"augment/session", "malformed.json", ".augment/sessions/bad.json", "sessions"},
		{"augment/session", "empty.json", ".augment/sessions/empty.json", "sessions"},
		{"augment/prompt-history", "prompt-history.jsonl", ".augment/prompt-history.jsonl", "prompt-history"},
		{"augment/settings", "settings.json", ".augment/settings.json", "settings"},
		{"augment/state", "auggie.json", ".augment/.auggie.json", "state"},
		{"augment/tasks", "task", ".augment/task-storage/tasks/0975b2e1-43ea-4a98-9fd1-018ca0468991", "task-storage"},
		{"augment/tasks", "manifest", ".augment/task-storage/manifest/manifest", "task-storage"},
	} {
		name := strings.TrimPrefix(c.id, "augment/") + "-" + c.file
		t.Run(name, func(t *testing.T) {
			p := byID(t, c.id)
			in := input(t, c.file, c.rel, c.target, nil)
			if !p.Match(&in.File) {
				t.Fatalf("%s does not match %s", c.id, c.rel)
			}
			parsertest.Golden(t, p, in, "testdata/"+name+".golden.jsonl")
		})
	}
}

func find(s *parsertest.Sink, tt timeline.TurnType, prefix string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && strings.HasPrefix(e.Text, prefix) {
			out = append(out, e)
		}
	}
	return out
}

// A resume with -m appends exchanges with the new model_id to the same
// file: one switch row; the tool call's full input and its linked result.
func TestResumeModelSwitchAndCall(t *testing.T) {
	s := parsertest.Run(t, byID(t, "augment/session"), input(t, "real-resume.json", ".augment/sessions/cad97a7b-53f0-48e4-b490-d1fb0415eac9.json", "sessions", nil))
	if len(s.Problems) != 0 {
		t.Fatal(s.Problems)
	}
	m := find(s, timeline.System, "model: ")
	if len(m) != 2 || m[0].Text != "model: mock-coder" || m[1].Text != "model: mock-coder -> mock-coder-2" || m[1].SourceLine != 3 {
		t.Fatalf("model rows %+v", m)
	}
	u := find(s, timeline.User, "")
	if len(u) != 2 || u[1].Text != "Run the shell command `echo doubleagent-auggie-resumed` and tell me what it printed." ||
		u[1].TimeBasis != timeline.TimeInherited || u[1].ProjectPath != "/home/examiner5/demo" || u[1].SessionID != "cad97a7b-53f0-48e4-b490-d1fb0415eac9" {
		t.Fatalf("user rows %+v", u)
	}
	c := find(s, timeline.ToolUse, "launch-process: echo doubleagent-auggie-resumed")
	if len(c) != 1 || c[0].ToolInput != `{"command":"echo doubleagent-auggie-resumed","cwd":"/home/examiner5/demo","max_wait_seconds":30,"wait":true}` || c[0].Model != "mock-coder-2" {
		t.Fatalf("call %+v", c)
	}
	r := find(s, timeline.ToolResult, "Here are the results")
	if len(r) != 2 || r[1].ToolUseID != c[0].ToolUseID || r[1].IsError != "false" || !strings.Contains(r[1].Text, "doubleagent-auggie-resumed") {
		t.Fatalf("results %+v", r)
	}
	// start_time_ms + duration_ms
	if r[1].Time != parsertest.Time(t, "2026-12-01T14:41:03.448Z") {
		t.Errorf("result at %s", r[1].Time)
	}
}

// --permission launch-process:deny: an error result and a decision row.
func TestDenied(t *testing.T) {
	s := parsertest.Run(t, byID(t, "augment/session"), input(t, "real-denied.json", ".augment/sessions/b20d05b6-83bb-4606-b3cd-9369226dbb42.json", "sessions", nil))
	r := find(s, timeline.ToolResult, "Tool execution denied: launch-process")
	d := find(s, timeline.System, "permission decision: deny (Tool execution denied: launch-process; Denied by explicit rule: tool-name=\"launch-process\")")
	if len(r) != 1 || r[0].IsError != "true" || len(d) != 1 || d[0].ToolUseID != r[0].ToolUseID || d[0].RecordID != "9583aff9-c011-4259-ad15-2ccdb2abcb29#decision" {
		t.Fatalf("result %+v decision %+v", r, d)
	}
}

// A subagent session, thinking, an image, an unknown node type, a history
// summary, changed files, an uncompleted exchange and an empty one.
func TestQuirks(t *testing.T) {
	s := parsertest.Run(t, byID(t, "augment/session"), input(t, "quirks.json", ".augment/sessions/sub-1.json", "sessions", nil))
	if len(s.States) != 1 || s.States[0].ParentSessionID != "parent-1" {
		t.Fatalf("states %+v", s.States)
	}
	for _, e := range s.Events {
		if e.ParentSessionID != "parent-1" || e.SessionID != "sub-1" {
			t.Fatalf("row without the subagent link %+v", e)
		}
	}
	checks := []struct {
		tt   timeline.TurnType
		text string
	}{
		{timeline.System, "subagent sub-1 of parent-1; session: sub-1 created"},
		{timeline.User, "list files"},
		{timeline.User, "[image]"},
		{timeline.System, "request node type 9"},
		{timeline.Thinking, "hmm"},
		{timeline.ToolUse, "view: a.txt"},
		{timeline.System, `changed files: [{"path":"a.txt"}]`},
		{timeline.System, "exchange not completed"},
		{timeline.System, "model: m-a -> m-b"},
		{timeline.System, "history summary (earlier exchanges compacted into this one): summary of earlier turns"},
		{timeline.Assistant, "ok"},
	}
	for _, c := range checks {
		if n := len(find(s, c.tt, c.text)); n != 1 {
			t.Errorf("%s %q: %d rows", c.tt, c.text, n)
		}
	}
	if n := len(find(s, timeline.User, "summary of earlier turns")); n != 0 {
		t.Errorf("a history summary given as a user row")
	}
	if k := s.SkipCounts(); k["no_evidence:empty_exchange"] != 1 {
		t.Errorf("skips %v", k)
	}
}

func TestPromptHistory(t *testing.T) {
	p := byID(t, "augment/prompt-history")
	if sp := p.(parser.Specced).Spec(); sp.Secondary == nil || sp.Secondary.Window != 0 {
		t.Fatal("prompt history must declare a Secondary source with no time")
	}
	s := parsertest.Run(t, p, input(t, "prompt-history.jsonl", ".augment/prompt-history.jsonl", "prompt-history", nil))
	if len(s.Events) != 2 || s.Events[0].Text != "refactor the parser" || !s.Events[0].Secondary || s.Events[0].TimeBasis != timeline.TimeNone {
		t.Fatalf("rows %+v", s.Events)
	}
	if len(s.Problems) != 2 || s.Problems[0] != "line 3: skipped_record: prompt history line without a message" {
		t.Fatalf("problems %v", s.Problems)
	}
}

func TestSettingsNoSecret(t *testing.T) {
	s := parsertest.Run(t, byID(t, "augment/settings"), input(t, "settings.json", ".augment/settings.json", "settings", nil))
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, e.Text)
	}
	want := []string{
		`permission setting: indexingAllowDirs=["/home/x/proj"] (from .augment/settings.json, file mtime)`,
		"model setting: model=claude-sonnet-4 (from .augment/settings.json, file mtime)",
		"permission setting: tool launch-process deny shellInputRegex=^rm  (from .augment/settings.json, file mtime)",
		"permission setting: tool save-file allow (from .augment/settings.json, file mtime)",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(texts, "\n"))
	}
}

// The manifest repeats the task files: rows only for a task whose file is
// gone.
func TestManifestOnlyForMissingTasks(t *testing.T) {
	p := byID(t, "augment/tasks")
	rel := ".augment/task-storage/manifest/manifest"
	tasks := parsertest.Files{}
	for _, id := range []string{"0975b2e1-43ea-4a98-9fd1-018ca0468991", "36a8ea90-5272-46a0-82e9-9fc35f0a95a0"} {
		tasks[home+".augment/task-storage/tasks/"+id] = "testdata/task"
	}
	s := parsertest.Run(t, p, input(t, "manifest", rel, "task-storage", tasks))
	if len(s.Events) != 1 || !strings.HasPrefix(s.Events[0].Text, "task a5a2c40c-1c57-49ca-ba02-d31ef20d56c3 ") || s.SkipCounts()["task_file_collected"] != 2 {
		t.Fatalf("rows %+v skips %v", s.Events, s.Skips)
	}
}

// A tool call whose input_json is not JSON (cut off mid-write, or "null")
// still gives a tool_input that is valid JSON: the raw text as one JSON
// string, and "" for null (parser.CompactJSON; the local copy it replaced
// returned the raw text, so tool_input was not JSON).
func TestToolInputAlwaysJSON(t *testing.T) {
	b, err := os.ReadFile("testdata/real-resume.json")
	if err != nil {
		t.Fatal(err)
	}
	const first = `"input_json": "{\"command\":\"echo doubleagent-auggie-marker \\u0026\\u0026 date -u +%Y\",\"cwd\":\"/home/examiner5/demo\",\"max_wait_seconds\":30,\"wait\":true}"`
	const second = `"input_json": "{\"command\":\"echo doubleagent-auggie-resumed\",\"cwd\":\"/home/examiner5/demo\",\"max_wait_seconds\":30,\"wait\":true}"`
	s := string(b)
	if !strings.Contains(s, first) || !strings.Contains(s, second) {
		t.Fatal("real-resume.json no longer has the two calls this test edits")
	}
	s = strings.Replace(s, first, `"input_json": "{\"command\":\"echo <cut> && date"`, 1)
	s = strings.Replace(s, second, `"input_json": "null"`, 1)
	p := filepath.Join(t.TempDir(), "cut.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	in := parsertest.Input(t, p, parser.File{Path: home + ".augment/sessions/cad97a7b-53f0-48e4-b490-d1fb0415eac9.json", Agent: Agent, Target: "sessions", MTime: mtime}, nil)
	got := map[string]bool{}
	for _, e := range parsertest.Run(t, byID(t, "augment/session"), in).Events {
		if e.TurnType == timeline.ToolUse {
			got[e.ToolInput] = true
		}
	}
	for _, want := range []string{`"{\"command\":\"echo <cut> && date"`, ""} {
		if !got[want] {
			t.Errorf("no tool_use row with tool_input %q; got %v", want, got)
		}
	}
	for ti := range got {
		if ti != "" && !json.Valid([]byte(ti)) {
			t.Errorf("tool_input %q is not JSON", ti)
		}
	}
}

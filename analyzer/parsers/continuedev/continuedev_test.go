package continuedev

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// fixedMTime stamps test inputs so goldens do not depend on checkout time.
var fixedMTime = time.Date(2026, 1, 3, 12, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

// input presents testdata/<local> at ~/.continue/<rel>, with every file of
// dir (if set) collected beside it under ~/.continue/<relDir>.
func input(t *testing.T, target, local, rel, dir, relDir string) *parser.Input {
	t.Helper()
	related := parsertest.Files{}
	if dir != "" {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			related["/home/examiner/.continue/"+relDir+"/"+e.Name()] = filepath.Join(dir, e.Name())
		}
	}
	f := parser.File{
		Path: "/home/examiner/.continue/" + rel, Rel: ".continue/" + rel,
		Agent: Agent, Target: target, MTime: fixedMTime,
	}
	return parsertest.Input(t, local, f, related)
}

func sessionInput(t *testing.T, dir, name string) *parser.Input {
	return input(t, "sessions", filepath.Join(dir, name), "sessions/"+name, dir, "sessions")
}

func golden(t *testing.T, id string, in *parser.Input, g string) *parsertest.Sink {
	t.Helper()
	return parsertest.Golden(t, byID(t, id), in, filepath.Join("testdata", g+".golden.jsonl"))
}

func find(s *parsertest.Sink, pred func(e *timeline.Event) bool) *timeline.Event {
	for i := range s.Events {
		if pred(&s.Events[i]) {
			return &s.Events[i]
		}
	}
	return nil
}

func TestMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"continue/sessions", "sessions", "/h/.continue/sessions/abc.json", true},
		{"continue/cli-log", "logs", "/h/.continue/logs/cn.log", true},
		{"continue/cli-log", "logs", "/h/.continue/logs/cn3.log", true},
		{"continue/cli-log", "logs", "/h/.continue/logs/core.log", false},
		{"continue/dev-data", "dev-data", "/h/.continue/dev_data/0.2.0/toolUsage.jsonl", true},
		{"continue/dev-data", "dev-data", "/h/.continue/dev_data/0.2.0/autocomplete.jsonl", false},
		{"continue/permissions", "permissions", "/h/.continue/permissions.yaml", true},
		{"continue/input-history", "input-history", "/h/.continue/input_history.json", true},
	}
	for _, c := range cases {
		f := &parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(f); got != c.want {
			t.Errorf("%s Match(%s) = %v, want %v", c.id, c.path, got, c.want)
		}
	}
}

func TestSessionIDE(t *testing.T) {
	s := golden(t, "continue/sessions", sessionInput(t, "testdata/sessions", "0b6c1f0e-9a41-4c43-8f1e-2f7c5d9a1a10.json"), "session_ide")
	created := time.UnixMilli(1767261600000).UTC() // dateCreated "1767261600000" (a string)
	user := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User })
	if user == nil || user.Text != "Why does test_add fail?\n[image]" || !user.Time.Equal(created) || user.TimeBasis != timeline.TimeInherited {
		t.Fatalf("user row = %+v", user)
	}
	if user.ProjectPath != "/home/examiner/proj" || user.SessionID != "0b6c1f0e-9a41-4c43-8f1e-2f7c5d9a1a10" {
		t.Errorf("project/session = %q %q", user.ProjectPath, user.SessionID)
	}
	ctxRow := find(s, func(e *timeline.Event) bool { return strings.HasPrefix(e.Text, "context item: calc.py") })
	if ctxRow == nil || ctxRow.TurnType != timeline.System {
		t.Errorf("context item must be a system row: %+v", ctxRow)
	}
	// reasoning.startAt is a recorded epoch-ms time
	th := find(s, func(e *timeline.Event) bool { return e.Text == "I should open calc.py first." })
	if th == nil || th.TurnType != timeline.Thinking || !th.Time.Equal(time.UnixMilli(1767261605000).UTC()) || th.TimeBasis != timeline.TimeRecorded {
		t.Errorf("reasoning row = %+v", th)
	}
	use := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolUse && e.ToolUseID == "call_read_1" })
	res := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolResult && e.ToolUseID == "call_read_1" })
	if use == nil || use.Text != "calc.py" || use.ToolName != "builtin_read_file" || use.ToolInput != `{"filepath":"calc.py"}` || use.Model != "Claude Sonnet" {
		t.Errorf("tool_use = %+v", use)
	}
	if res == nil || res.IsError != "false" || res.ToolName != "builtin_read_file" || res.SourceLine != 4 {
		t.Errorf("tool_result = %+v", res)
	}
	term := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolUse && e.ToolUseID == "call_term_2" })
	if term == nil || term.Text != "rm -rf build && pytest" || term.Model != "GPT-5" {
		t.Errorf("terminal tool_use = %+v", term)
	}
	deny := find(s, func(e *timeline.Event) bool { return e.Text == "permission decision: denied source=user" })
	if deny == nil || deny.ToolUseID != "call_term_2" {
		t.Errorf("denial row = %+v", deny)
	}
	if find(s, func(e *timeline.Event) bool { return e.Text == "model: Claude Sonnet -> GPT-5" }) == nil {
		t.Error("no model change row")
	}
	if find(s, func(e *timeline.Event) bool { return e.Text == "session mode: agent" }) == nil {
		t.Error("no session mode row")
	}
	n := 0
	for _, e := range s.Events {
		if e.TurnType == timeline.ToolResult {
			n++
		}
	}
	if n != 2 { // role "tool" messages only; toolCallStates do not repeat them
		t.Errorf("tool results = %d, want 2", n)
	}
}

func TestSessionCLI(t *testing.T) {
	s := golden(t, "continue/sessions", sessionInput(t, "testdata/sessions", "c7d2e3f4-1111-4222-8333-944455556666.json"), "session_cli")
	created := time.UnixMilli(1767265200000).UTC() // numeric dateCreated
	ls := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolResult && e.ToolUseID == "tc_ls" })
	if ls == nil || ls.Text != "README.md\ntmp\n" || ls.IsError != "false" || !ls.Time.Equal(created) {
		t.Errorf("ls result (from toolCallStates) = %+v", ls)
	}
	rm := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.ToolResult && e.ToolUseID == "tc_rm" })
	if rm == nil || rm.IsError != "true" || rm.Text != "Permission denied by user" {
		t.Errorf("rm result = %+v", rm)
	}
	if d := find(s, func(e *timeline.Event) bool { return e.Text == "permission decision: denied source=user" }); d == nil || d.ToolUseID != "tc_rm" {
		t.Errorf("denial = %+v", d)
	}
	sys := find(s, func(e *timeline.Event) bool { return e.Text == "You are an agent in the Continue CLI." })
	if sys == nil || sys.TurnType != timeline.System {
		t.Errorf("system prompt row = %+v", sys)
	}
	if u := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User }); u == nil || u.Text != "list the files and delete tmp" || u.ProjectPath != "/home/examiner/cliproj" {
		t.Errorf("user = %+v", u)
	}
}

// A session without an index entry is timed by its file's mtime.
func TestSessionNotInIndex(t *testing.T) {
	s := golden(t, "continue/sessions", sessionInput(t, "testdata/sessions", "not-in-index.json"), "session_not_in_index")
	u := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User })
	if u == nil || u.TimeBasis != timeline.TimeFileMTime || !u.Time.Equal(fixedMTime) {
		t.Errorf("user = %+v", u)
	}
	if len(s.Problems) < 3 { // no index entry, item 3 not an object, unknown role
		t.Errorf("problems = %v", s.Problems)
	}
}

// An empty or broken sessions.json does not stop the session from being read.
func TestSessionEmptyAndBrokenIndex(t *testing.T) {
	for _, dir := range []string{"empty_index", "broken_index"} {
		s := golden(t, "continue/sessions", sessionInput(t, "testdata/"+dir, "c7d2e3f4-1111-4222-8333-944455556666.json"), "session_"+dir)
		u := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User })
		if u == nil || u.TimeBasis != timeline.TimeFileMTime || u.Text != "list the files and delete tmp" {
			t.Errorf("%s: user = %+v", dir, u)
		}
	}
	// the broken index itself is a problem, not a crash
	s := golden(t, "continue/sessions", sessionInput(t, "testdata/broken_index", "sessions.json"), "index_broken")
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Errorf("broken index: %d events, problems %v", len(s.Events), s.Problems)
	}
	s = golden(t, "continue/sessions", sessionInput(t, "testdata/empty_index", "sessions.json"), "index_empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Errorf("empty index: %d events, problems %v", len(s.Events), s.Problems)
	}
}

// sessions.json entries without a session file (deleted sessions, old
// snake_case entries) are listed.
func TestSessionIndex(t *testing.T) {
	s := golden(t, "continue/sessions", sessionInput(t, "testdata/sessions", "sessions.json"), "index")
	if len(s.Events) != 2 {
		t.Fatalf("events = %d, want 2 (old snake_case and deleted)", len(s.Events))
	}
	del := find(s, func(e *timeline.Event) bool { return e.SessionID == "deleted-2222" })
	if del == nil || !del.Time.Equal(time.UnixMilli(1767268800000).UTC()) {
		t.Errorf("deleted = %+v", del)
	}
	old := find(s, func(e *timeline.Event) bool { return e.SessionID == "old-snake-1" })
	if old == nil || !strings.HasSuffix(old.Text, "(old snake_case entry)") {
		t.Errorf("old = %+v", old)
	}
}

func TestSessionEmptyMalformed(t *testing.T) {
	s := golden(t, "continue/sessions", input(t, "sessions", "testdata/empty.json", "sessions/empty.json", "", ""), "empty")
	if len(s.Events) != 0 {
		t.Errorf("empty: %d events", len(s.Events))
	}
	s = golden(t, "continue/sessions", input(t, "sessions", "testdata/malformed.json", "sessions/malformed.json", "", ""), "malformed")
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Errorf("malformed: %d events, %v", len(s.Events), s.Problems)
	}
}

func TestDevData(t *testing.T) {
	for _, name := range []string{"chatInteraction", "toolUsage", "editInteraction", "editOutcome", "chatFeedback"} {
		s := golden(t, "continue/dev-data", input(t, "dev-data", "testdata/dev_data/0.2.0/"+name+".jsonl", "dev_data/0.2.0/"+name+".jsonl", "", ""), "devdata_"+name)
		for _, e := range s.Events {
			if !e.Secondary {
				t.Errorf("%s: row not secondary: %+v", name, e)
			}
			if strings.Contains(e.Text, "SECRET-USER-TOKEN") {
				t.Errorf("%s: userId leaked", name)
			}
		}
		switch name {
		case "chatInteraction":
			a := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.Assistant })
			if a == nil || a.Text != "Let me read the file." || a.SessionID != "0b6c1f0e-9a41-4c43-8f1e-2f7c5d9a1a10" || a.Time != parsertest.Time(t, "2026-01-01T10:00:09.123Z") {
				t.Errorf("chatInteraction assistant = %+v", a)
			}
			if len(s.Problems) != 1 {
				t.Errorf("cut line not reported: %v", s.Problems)
			}
		case "toolUsage":
			if d := find(s, func(e *timeline.Event) bool { return e.Text == "permission decision: denied source=user" }); d == nil || d.ToolUseID != "call_term_2" {
				t.Errorf("toolUsage denial = %+v", d)
			}
		case "editInteraction":
			if u := find(s, func(e *timeline.Event) bool { return e.TurnType == timeline.User }); u == nil || u.Text != "make add() handle None" {
				t.Errorf("edit prompt = %+v", u)
			}
		case "editOutcome":
			if find(s, func(e *timeline.Event) bool {
				return e.Text == "edit outcome: accepted file:///home/examiner/proj/calc.py lines 2 -> 4 model=GPT-5"
			}) == nil {
				t.Errorf("edit outcome rows: %s", parsertest.Render(s))
			}
		case "chatFeedback":
			if find(s, func(e *timeline.Event) bool { return e.Text == "chat feedback: unhelpful model=GPT-5" }) == nil {
				t.Errorf("feedback rows: %s", parsertest.Render(s))
			}
		}
	}
}

func TestCLILog(t *testing.T) {
	s := golden(t, "continue/cli-log", input(t, "logs", "testdata/cn.log", "logs/cn.log", "", ""), "cn_log")
	want := []string{
		"storage upload requested, skipped: no Continue API key is available; skipping uploads.",
		"agent metadata posted: agent=agt_123 keys=diffStats,summary url=https://api.continue.dev/agents/agt_123/metadata",
		"permission decision: allow always source=user rule=Bash(ls*)",
		"permission decision: denied source=user tool=Bash",
		"storage upload requested: Storage sync enabled (uploading every 30s)",
	}
	if len(s.Events) != len(want) {
		t.Fatalf("rows = %d, want %d:\n%s", len(s.Events), len(want), parsertest.Render(s))
	}
	for i, w := range want {
		if s.Events[i].Text != w {
			t.Errorf("row %d = %q, want %q", i, s.Events[i].Text, w)
		}
		if s.Events[i].TimeBasis != timeline.TimeLocalAsUTC {
			t.Errorf("row %d basis %q", i, s.Events[i].TimeBasis)
		}
	}
	if s.Events[0].Time != parsertest.Time(t, "2026-01-02T09:15:02.5Z") {
		t.Errorf("time = %v", s.Events[0].Time)
	}
	if s.Events[3].ToolInput != `{"command":"rm -rf tmp"}` {
		t.Errorf("denied input = %q", s.Events[3].ToolInput)
	}
	s = golden(t, "continue/cli-log", input(t, "logs", "testdata/cn1.log", "logs/cn1.log", "", ""), "cn1_log")
	if len(s.Events) != 1 || s.Events[0].Text != "permission decision: denied source=policy tool=Bash" {
		t.Errorf("rotated log: %s", parsertest.Render(s))
	}
}

func TestPermissions(t *testing.T) {
	s := golden(t, "continue/permissions", input(t, "permissions", "testdata/permissions.yaml", "permissions.yaml", "", ""), "permissions")
	want := []string{
		"permission setting: allow=Bash(ls*) (from .continue/permissions.yaml, file mtime)",
		"permission setting: allow=Read (from .continue/permissions.yaml, file mtime)",
		"permission setting: ask=Write (from .continue/permissions.yaml, file mtime)",
		"permission setting: exclude=Fetch (from .continue/permissions.yaml, file mtime)",
	}
	if len(s.Events) != len(want) {
		t.Fatalf("rows = %d", len(s.Events))
	}
	for i, w := range want {
		if s.Events[i].Text != w || s.Events[i].TimeBasis != timeline.TimeFileMTime || !s.Events[i].Time.Equal(fixedMTime) {
			t.Errorf("row %d = %+v", i, s.Events[i])
		}
	}
	s = golden(t, "continue/permissions", input(t, "permissions", "testdata/bad_permissions.yaml", "permissions.yaml", "", ""), "permissions_bad")
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Errorf("bad yaml: %s", parsertest.Render(s))
	}
}

func TestInputHistory(t *testing.T) {
	s := golden(t, "continue/input-history", input(t, "input-history", "testdata/input_history.json", "input_history.json", "", ""), "input_history")
	if len(s.Events) != 2 {
		t.Fatalf("rows = %d", len(s.Events))
	}
	// sorted by time: "/model" first
	if s.Events[1].Text != "list the files and delete tmp" || !s.Events[1].Secondary || !s.Events[1].Time.Equal(time.UnixMilli(1767265201000).UTC()) || s.Events[1].SourceLine != 1 {
		t.Errorf("row = %+v", s.Events[1])
	}
}

package crush

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func byID(t *testing.T, id string) parser.Parser {
	t.Helper()
	for _, p := range Parsers() {
		if p.ID() == id {
			return p
		}
	}
	t.Fatalf("no parser %s", id)
	return nil
}

func dbInput(t *testing.T, sqlFile string) *parser.Input {
	t.Helper()
	return parsertest.Input(t, parsertest.SQLite(t, sqlFile), parser.File{
		Path: "/home/examiner/proj/.crush/crush.db", Agent: Agent, Target: "project"}, nil)
}

func ofType(s *parsertest.Sink, tt timeline.TurnType) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt {
			out = append(out, e)
		}
	}
	return out
}

func withText(s *parsertest.Sink, prefix string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if strings.HasPrefix(e.Text, prefix) {
			out = append(out, e)
		}
	}
	return out
}

func TestMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"crush/db", "project", "/home/examiner/proj/.crush/crush.db", true},
		{"crush/db", "home-db", "/home/examiner/.crush/crush.db", true},
		{"crush/db", "project", "/home/examiner/proj/.crush/logs/crush.log", false},
		{"crush/projects", "projects", "/home/examiner/.local/share/crush/projects.json", true},
		{"crush/config", "config", "/home/examiner/.config/crush/crush.json", true},
		{"crush/config", "project", "/home/examiner/proj/.crush.json", true},
		{"crush/config", "project", "/home/examiner/proj/crushrc", true},
		{"crush/config", "project", "/home/examiner/proj/CRUSH.md", false},
	}
	for _, c := range cases {
		f := &parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(f); got != c.want {
			t.Errorf("%s %s: got %v", c.id, c.path, got)
		}
	}
}

func TestDBTypical(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "crush/db"), dbInput(t, "testdata/typical.sql"), "testdata/typical.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	const sid = "5c1e0f5e-0000-4000-8000-000000000001"
	u := ofType(s, timeline.User)
	if len(u) != 2 || u[0].Text != "list the go files" || u[0].SessionID != sid || u[0].ProjectPath != "/home/examiner/proj" ||
		!u[0].Time.Equal(time.Unix(1772442000, 0)) || u[0].SourceLine != 1 || u[1].Text != "!go test ./..." {
		t.Fatalf("user rows: %+v", u)
	}
	th := ofType(s, timeline.Thinking)
	if len(th) != 1 || th[0].Text != "I should run ls." || th[0].Model != "anthropic/claude-sonnet-4-5" {
		t.Fatalf("thinking rows: %+v", th)
	}
	uses := ofType(s, timeline.ToolUse)
	res := ofType(s, timeline.ToolResult)
	if len(uses) != 4 || len(res) != 4 {
		t.Fatalf("tool rows: %d uses, %d results", len(uses), len(res))
	}
	if uses[0].ToolUseID != "call_ls" || uses[0].ToolName != "bash" || uses[0].Text != "ls *.go" ||
		uses[0].ToolInput != `{"command":"ls *.go"}` || uses[0].Model != "anthropic/claude-sonnet-4-5" {
		t.Fatalf("first call: %+v", uses[0])
	}
	if res[0].ToolUseID != "call_ls" || res[0].Text != "main.go\nmain_test.go" || res[0].IsError != "false" || res[0].Model != "" {
		t.Fatalf("first result: %+v", res[0])
	}
	if res[1].ToolUseID != "call_rm" || res[1].IsError != "true" {
		t.Fatalf("denied result: %+v", res[1])
	}
	if d := withText(s, "permission decision: "); len(d) != 1 || d[0].Text != "permission decision: denied source=user" || d[0].ToolUseID != "call_rm" {
		t.Fatalf("decision rows: %+v", d)
	}
	if uses[2].ToolName != "agent" || uses[2].Text != "find the tests" {
		t.Fatalf("agent call: %+v", uses[2])
	}
	// The sub-agent's prompt was written by the parent agent, not typed.
	if sub := withText(s, "subagent prompt: "); len(sub) != 1 || sub[0].SessionID != "m-asst-1$$call_agent" || sub[0].TurnType != timeline.System {
		t.Fatalf("subagent prompt: %+v", sub)
	}
	if e := withText(s, "subagent m-asst-1$$call_agent of "+sid); len(e) != 1 {
		t.Fatalf("subagent row: %+v", withText(s, "subagent "))
	}
	var models []string
	for _, e := range withText(s, "model: ") {
		models = append(models, e.SessionID[:4]+" "+e.Text)
	}
	want := []string{"5c1e model: anthropic/claude-sonnet-4-5", "m-as model: anthropic/claude-haiku-4-5", "5c1e model: anthropic/claude-sonnet-4-5 -> openai/gpt-5"}
	if strings.Join(models, "|") != strings.Join(want, "|") {
		t.Fatalf("model rows: %q", models)
	}
	if sum := withText(s, "summary: "); len(sum) != 1 || sum[0].Text != "summary: The user listed the Go files." {
		t.Fatalf("summary rows: %+v", sum)
	}
	for _, e := range ofType(s, timeline.Assistant) {
		if strings.Contains(e.Text, "listed the Go files") {
			t.Fatalf("summary emitted as assistant: %+v", e)
		}
	}
	if a := withText(s, "attachment: "); len(a) != 1 || a[0].Text != "attachment: /home/examiner/proj/notes.txt (text/plain)" {
		t.Fatalf("attachment rows: %+v", a)
	}
	if f := withText(s, "file snapshot: "); len(f) != 1 || f[0].Text != "file snapshot: /home/examiner/proj/main.go version=0" {
		t.Fatalf("file rows: %+v", f)
	}
	if f := withText(s, "file read: "); len(f) != 1 || !f[0].Time.Equal(time.Unix(1772442009, 0)) {
		t.Fatalf("read rows: %+v", f)
	}
}

func TestDBMalformed(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "crush/db"), dbInput(t, "testdata/malformed.sql"), "testdata/malformed.golden.jsonl")
	if len(s.Problems) != 2 || !strings.Contains(s.Problems[0], "line 1: message parts are not a JSON array") ||
		!strings.Contains(s.Problems[1], `line 2: unknown part type "video"`) {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := ofType(s, timeline.User)
	// Millisecond times (the migration comments' unit) are read as such.
	if len(u) != 1 || u[0].Text != "second try" || u[0].TimeString() != "2025-04-24T13:06:41.000Z" {
		t.Fatalf("user rows: %+v", u)
	}
	if m := withText(s, "model: "); len(m) != 1 || m[0].Text != "model: gpt-4o" {
		t.Fatalf("model rows: %+v", m)
	}
}

func TestDBEmpty(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "crush/db"), dbInput(t, "testdata/empty.sql"), "testdata/empty.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

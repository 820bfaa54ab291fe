package crush

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var byID = parsertest.IDs(Parsers())

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
	if sub := withText(s, "subagent task: "); len(sub) != 1 || sub[0].Text != "subagent task: find the tests" || sub[0].SessionID != "m-asst-1$$call_agent" ||
		sub[0].TurnType != timeline.System || sub[0].ParentSessionID != sid || sub[0].RecordID != "m-sub-1#0" {
		t.Fatalf("subagent task: %+v", sub)
	}
	for _, e := range s.Events {
		if (e.SessionID == "m-asst-1$$call_agent") != (e.ParentSessionID == sid) {
			t.Errorf("parent session: %+v", e)
		}
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != "m-asst-1$$call_agent" || s.States[0].ParentSessionID != sid {
		t.Errorf("states: %+v", s.States)
	}
	if e := withText(s, "subagent m-asst-1$$call_agent of "+sid); len(e) != 1 || e[0].RecordID != "m-asst-1$$call_agent#subagent" {
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
	if len(s.Problems) != 2 || !strings.Contains(s.Problems[0], "line 1: parts column is not a JSON array: unexpected end of JSON input") ||
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

// TestDBRelayUndoHooks: a session driven from an MCP channel (relayed yes,
// the pushed message a user row of what the sender wrote plus where it
// came from), one a /undo hid the last turn of (the rows stay, followed by
// the undo row), an archived session, and the PreToolUse hook metadata
// stored on tool results (hook audit and permission decision rows).
func TestDBRelayUndoHooks(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "crush/db"), dbInput(t, "testdata/relay.sql"), "testdata/relay.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	type row struct {
		sess, rid string
		tt        timeline.TurnType
		text      string
	}
	var got []row
	for _, e := range s.Events {
		got = append(got, row{e.SessionID, e.RecordID, e.TurnType, e.Text})
	}
	want := []row{
		{"s-tg", "s-tg#title", timeline.System, "session title: From Telegram"},
		{"s-tg", "m-t1#0", timeline.User, "restart the web server"},
		{"s-tg", "m-t1#0#channel", timeline.System, "relayed: message via channel telegram from Bob (4242) at 2026-04-02T09:00:00Z"},
		{"s-tg", "", timeline.System, "model: openai/gpt-5"},
		{"s-tg", "m-t2#0", timeline.ToolUse, "systemctl restart web"},
		{"s-tg", "m-t3#0", timeline.ToolResult, "Tool call blocked by hook. Reason: no service restarts from channels"},
		{"s-tg", "m-t3#0#hook-0", timeline.System, "hook audit: guard matcher=bash decision=deny: no service restarts from channels"},
		{"s-tg", "m-t3#0#hook", timeline.System, "permission decision: denied source=hook: no service restarts from channels"},
		{"s-undo", "s-undo#title", timeline.System, "session title: Undone"},
		{"s-undo", "m-u1#0", timeline.User, "make a backup"},
		{"s-undo", "m-u2#0", timeline.User, "now delete the originals"},
		{"s-undo", "", timeline.System, "model: openai/gpt-5"},
		{"s-undo", "m-u3#0", timeline.ToolUse, "rm -rf originals"},
		{"s-undo", "m-u4#0", timeline.ToolResult, ""},
		{"s-undo", "m-u4#0#hook-0", timeline.System, "hook audit: audit decision=none"},
		{"s-undo", "m-u4#0#hook-1", timeline.System, "hook audit: approve-rm matcher=bash decision=allow input rewritten"},
		{"s-undo", "m-u4#0#hook", timeline.System, "permission decision: allowed source=hook"},
		{"s-undo", "s-undo#revert", timeline.System, "undone by /undo: 3 message(s) from m-u2 on are hidden and will be deleted at the next prompt"},
		{"s-undo", "s-undo#archived", timeline.System, "session archived"},
	}
	if len(got) != len(want) {
		t.Fatalf("rows:\n%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	relayed := map[string]string{}
	for _, st := range s.States {
		relayed[st.Key.SessionID] = st.Relayed
	}
	if len(relayed) != 2 || relayed["s-tg"] != "yes" || relayed["s-undo"] != "no" {
		t.Errorf("relay states: %+v", s.States)
	}
}

// TestDBAltered: the one SQLite policy. Without files the one problem
// names it and every row of the other tables is still there; read_files
// is Optional (a later migration): without it, no problem; a messages
// table lacking parts is named and the session and file rows are all
// there; a file with none of the tables is one problem.
func TestDBAltered(t *testing.T) {
	// VACUUM: the carver finds no dropped schema record in freed pages
	run := func(stmt string) *parsertest.Sink {
		in := parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", stmt, "VACUUM"), parser.File{
			Path: "/home/examiner/proj/.crush/crush.db", Agent: Agent, Target: "project"}, nil)
		return parsertest.Run(t, byID(t, "crush/db"), in)
	}
	full := parsertest.Run(t, byID(t, "crush/db"), dbInput(t, "testdata/typical.sql"))
	key := func(e timeline.Event) string { return e.RecordID + " " + string(e.TurnType) + " " + e.Text }
	fromSessions := func(e timeline.Event) bool {
		return strings.HasPrefix(e.Text, "session title: ") || strings.HasPrefix(e.Text, "subagent ") && strings.Contains(e.RecordID, "#subagent")
	}
	for _, c := range []struct {
		stmt, problem string
		keep          func(timeline.Event) bool
	}{
		{`DROP TABLE files`, "line 0: table files missing: its rows cannot be read; the other tables are read",
			func(e timeline.Event) bool { return !strings.HasPrefix(e.Text, "file snapshot: ") }},
		{`DROP TABLE read_files`, "",
			func(e timeline.Event) bool { return !strings.HasPrefix(e.Text, "file read: ") }},
		{`ALTER TABLE messages DROP COLUMN parts`, "line 0: unknown schema: table messages lacks column(s) parts: not read; the other tables are read",
			func(e timeline.Event) bool {
				return fromSessions(e) || strings.HasPrefix(e.Text, "file snapshot: ") || strings.HasPrefix(e.Text, "file read: ")
			}},
	} {
		s := run(c.stmt)
		var want, got []string
		for _, e := range full.Events {
			if c.keep(e) {
				want = append(want, key(e))
			}
		}
		for _, e := range s.Events {
			got = append(got, key(e))
		}
		if strings.Join(s.Problems, "|") != c.problem || strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == len(full.Events) || len(want) == 0 {
			t.Errorf("%s: problems %q rows\n%s\nwant\n%s", c.stmt, s.Problems, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	o := parsertest.Run(t, byID(t, "crush/db"), dbInput(t, "testdata/other.sql"))
	if len(o.Events) != 0 || strings.Join(o.Problems, "|") != "line 0: not a Crush database: none of the tables files, messages, read_files, sessions" {
		t.Errorf("not a store: %d rows %q", len(o.Events), o.Problems)
	}
}

package goose

import (
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const sessDir = "/home/examiner/.local/share/goose/sessions/"

var byID = parsertest.IDs(Parsers())

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

func bySession(s *parsertest.Sink, id string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.SessionID == id {
			out = append(out, e)
		}
	}
	return out
}

// legacyBeside are the two legacy JSONL files collected beside sessions.db.
var legacyBeside = parsertest.Files{
	sessDir + "20260101_120000.jsonl": "testdata/20260101_120000.jsonl",
	sessDir + "20251215_080000.jsonl": "testdata/20251215_080000.jsonl",
}

func TestMatch(t *testing.T) {
	cases := []struct {
		id, target, path string
		want             bool
	}{
		{"goose/sessions-db", "sessions-db", sessDir + "sessions.db", true},
		{"goose/sessions-db", "sessions-db", "C:/Users/x/AppData/Roaming/Block/goose/data/sessions/sessions.db", true},
		{"goose/sessions", "sessions", sessDir + "20260101_120000.jsonl", true},
		{"goose/llm-requests", "llm-requests", "/home/examiner/.local/state/goose/logs/llm_request.3.jsonl", true},
		{"goose/llm-requests", "logs", "/home/examiner/.local/state/goose/logs/goose.log", false},
		{"goose/history", "history", "/home/examiner/.config/goose/history.txt", true},
		{"goose/settings", "settings", "/home/examiner/.config/goose/permission.yaml", true},
		{"goose/settings", "secrets", "/home/examiner/.config/goose/secrets.yaml", false},
		{"goose/schedule", "schedule", "/home/examiner/.local/share/goose/schedule.json", true},
	}
	for _, c := range cases {
		f := &parser.File{Path: c.path, Agent: Agent, Target: c.target}
		if got := byID(t, c.id).Match(f); got != c.want {
			t.Errorf("%s %s: got %v", c.id, c.path, got)
		}
	}
}

func TestSessionsDB(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/sessions.sql"), parser.File{Path: sessDir + "sessions.db", Agent: Agent, Target: "sessions-db"}, legacyBeside)
	s := parsertest.Golden(t, byID(t, "goose/sessions-db"), in, "testdata/sessions.golden.jsonl")
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 11: content_json is not a JSON array") {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := ofType(s, timeline.User)
	var texts []string
	for _, e := range u {
		texts = append(texts, e.SessionID+": "+e.Text+" secondary="+strconv.FormatBool(e.Secondary))
	}
	// the legacy files beside the database are a secondary source: the
	// engine drops their rows that repeat the database (hi) and keeps the
	// rest (a session deleted from the database after the import)
	want := []string{
		"20251215_080000: show me the keys secondary=true",
		"20260101_120000: hi secondary=true",
		"20260101_120000: hi secondary=false",
		"20260302_1: list the files here secondary=false",
		"20260302_3: hello from the bot secondary=false",
	}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("user rows: %q", texts)
	}
	first := bySession(s, "20260302_1")
	if u[2].Secondary || u[3].ProjectPath != "/home/examiner/proj" || !u[3].Time.Equal(time.Unix(1772442000, 0)) || u[3].SourceLine != 1 || u[3].RecordID != "msg_1#0" {
		t.Fatalf("user row: %+v", u[3])
	}
	// Same session in the legacy JSONL and the database: the file's rows
	// are secondary and name the file.
	for _, e := range s.Events {
		if strings.HasSuffix(e.SourceFile, ".jsonl") != e.Secondary {
			t.Fatalf("legacy row not secondary, or database row secondary: %+v", e)
		}
	}
	// A legacy file the database lacks is read, with its own source file.
	del := bySession(s, "20251215_080000")
	if len(del) != 3 || del[0].SourceFile != sessDir+"20251215_080000.jsonl" || del[2].ToolUseID != "toolu_9" ||
		del[2].Text != "/home/examiner/.ssh/id_rsa" || del[2].ProjectPath != "/home/examiner/secret" {
		t.Fatalf("deleted session rows: %+v", del)
	}
	uses := ofType(s, timeline.ToolUse)
	res := ofType(s, timeline.ToolResult)
	if len(uses) != 4 || len(res) != 3 || uses[1].RecordID != "msg_2#2" || res[0].RecordID != "msg_4#0" {
		t.Fatalf("tool rows: %d %d", len(uses), len(res))
	}
	if uses[1].ToolUseID != "call_1" || uses[1].ToolName != "developer__shell" || uses[1].Text != "ls -la" ||
		uses[1].ToolInput != `{"command":"ls -la"}` || uses[1].Model != "openai/gpt-4o" {
		t.Fatalf("call_1: %+v", uses[1])
	}
	if res[0].ToolUseID != "call_1" || res[0].Text != "a.txt\nb.txt" || res[0].IsError != "false" {
		t.Fatalf("result call_1: %+v", res[0])
	}
	if res[2].ToolUseID != "call_3" || res[2].IsError != "true" || res[2].Text != "-32602: Tool not found" {
		t.Fatalf("result call_3: %+v", res[2])
	}
	if r := withText(s, "permission request: "); len(r) != 1 || r[0].ToolUseID != "call_2" || r[0].Text != "permission request: developer__shell" {
		t.Fatalf("request rows: %+v", r)
	}
	if d := withText(s, "permission decision: "); len(d) != 1 || d[0].ToolUseID != "call_2" || d[0].Text != "permission decision: denied source=user" || d[0].RecordID != "msg_4#1#decision" {
		t.Fatalf("decision rows: %+v", d)
	}
	if m := withText(s, "model: "); len(m) != 1 || m[0].Text != "model: openai/gpt-4o" || m[0].SessionID != "20260302_1" {
		t.Fatalf("model rows: %+v", m)
	}
	if a := withText(s, "agent-only message: "); len(a) != 1 || a[0].TurnType != timeline.System {
		t.Fatalf("agent-only rows: %+v", a)
	}
	as := ofType(s, timeline.Assistant)
	if len(as) != 2 || as[1].Text != "There are two files." || as[1].TimeString() != "2026-03-02T09:00:20.500Z" {
		t.Fatalf("assistant rows: %+v", as)
	}
	if th := ofType(s, timeline.Thinking); len(th) != 1 || th[0].Text != "Use the shell." {
		t.Fatalf("thinking: %+v", th)
	}
	if e := withText(s, "subagent 20260302_2 of 20260302_1"); len(e) != 1 || e[0].RecordID != "20260302_2#subagent" || e[0].ParentSessionID != "20260302_1" {
		t.Fatalf("subagent: %+v", withText(s, "subagent"))
	}
	if e := withText(s, "permission mode: smart_approve"); len(e) != 1 || e[0].SessionID != "20260302_1" || e[0].TimeString() != "2026-03-02T09:00:00.000Z" {
		t.Fatalf("mode: %+v", e)
	}
	if e := withText(s, "session archived"); len(e) != 1 || e[0].TimeString() != "2026-03-03T08:00:00.000Z" {
		t.Fatalf("archived: %+v", e)
	}
	relayed := map[string]string{}
	for _, st := range s.States {
		relayed[st.Key.SessionID] = st.Relayed
		if (st.ParentSessionID != "") != (st.Key.SessionID == "20260302_2") {
			t.Errorf("state: %+v", st)
		}
	}
	if relayed["20260302_3"] != "yes" || relayed["20260302_1"] != "no" || len(relayed) != 4 {
		t.Fatalf("states: %+v", s.States)
	}
	// The legacy metadata row takes the first message's time.
	if del[0].Text != "session name: deleted later" || del[0].TimeBasis != timeline.TimeInherited || del[0].TimeString() != "2025-12-15T08:00:00.000Z" {
		t.Fatalf("legacy name row: %+v", del[0])
	}
	// A sub-agent's prompt was written by the parent agent, not typed.
	if p := withText(s, "subagent task: "); len(p) != 1 || p[0].Text != "subagent task: count the lines" || p[0].SessionID != "20260302_2" ||
		p[0].ParentSessionID != "20260302_1" || p[0].TurnType != timeline.System {
		t.Fatalf("subagent task: %+v", p)
	}
	if len(first) == 0 {
		t.Fatal("no rows for 20260302_1")
	}
}

func TestSessionsDBEmpty(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/empty.sql"), parser.File{Path: sessDir + "sessions.db", Agent: Agent, Target: "sessions-db"}, nil)
	s := parsertest.Golden(t, byID(t, "goose/sessions-db"), in, "testdata/empty_db.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

func jsonlInput(t *testing.T, local, name string, related parsertest.Files) *parser.Input {
	return parsertest.Input(t, local, parser.File{Path: sessDir + name, Agent: Agent, Target: "sessions"}, related)
}

func TestJSONLTypical(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/sessions"), jsonlInput(t, "testdata/typical.jsonl", "20250514_000000.jsonl", nil), "testdata/typical.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	u := ofType(s, timeline.User)
	if len(u) != 1 || u[0].Text != "fix the build" || u[0].SessionID != "20250514_000000" || u[0].ProjectPath != "/home/examiner/proj" ||
		u[0].SourceLine != 2 || !u[0].Time.Equal(time.Unix(1747178328, 0)) {
		t.Fatalf("user rows: %+v", u)
	}
	uses, res := ofType(s, timeline.ToolUse), ofType(s, timeline.ToolResult)
	if len(uses) != 2 || len(res) != 1 || uses[0].ToolUseID != "toolu_1" || uses[0].Text != "make" ||
		res[0].ToolUseID != "toolu_1" || res[0].Text != "make: *** No rule to make target" || res[0].IsError != "false" {
		t.Fatalf("tool rows: %+v %+v", uses, res)
	}
	if uses[1].ToolName != "browser__open" || uses[1].Text != "https://example.com" {
		t.Fatalf("frontend call: %+v", uses[1])
	}
	if r := withText(s, "permission request: "); len(r) != 1 || r[0].Text != "permission request: developer__shell (Allow sudo?)" ||
		r[0].ToolInput != `{"command":"sudo make install"}` {
		t.Fatalf("confirmation: %+v", r)
	}
	for _, p := range []string{"session name: Fix the build", "context length exceeded: too long", "summarization requested: summarize?"} {
		if len(withText(s, p)) != 1 {
			t.Fatalf("missing %q", p)
		}
	}
	if th := ofType(s, timeline.Thinking); len(th) != 1 || th[0].Text != "[redacted thinking]" {
		t.Fatalf("thinking: %+v", th)
	}
}

// aaif-goose/goose#2529 and #1946: a blank line between messages and a
// malformed end (the cut record `{"r` / `ole":` spans two lines);
// the good lines are kept and each bad line is a problem.
func TestJSONLMalformed(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/sessions"), jsonlInput(t, "testdata/malformed.jsonl", "20250514_010000.jsonl", nil), "testdata/malformed.golden.jsonl")
	if len(s.Problems) != 2 || s.Problems[0] != "line 5: malformed JSON line (cut short or corrupt), skipped" || !strings.HasPrefix(s.Problems[1], "line 6: ") {
		t.Fatalf("problems: %v", s.Problems)
	}
	if u := ofType(s, timeline.User); len(u) != 1 || u[0].Text != "hi" || u[0].ProjectPath != "/p" {
		t.Fatalf("user: %+v", u)
	}
	if a := ofType(s, timeline.Assistant); len(a) != 1 || a[0].Text != "hello" || a[0].SourceLine != 4 {
		t.Fatalf("assistant: %+v", a)
	}
	// The pre-1.x "reasoning" item is read as thinking, as goose migrates it.
	if th := ofType(s, timeline.Thinking); len(th) != 1 || th[0].Text != "old reasoning" {
		t.Fatalf("thinking: %+v", th)
	}
}

func TestJSONLEmpty(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "goose/sessions"), jsonlInput(t, "testdata/empty.jsonl", "empty.jsonl", nil), "testdata/empty.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

// With sessions.db collected beside it, a legacy file is left to the
// database parser, which reads it as a secondary source.
func TestJSONLBesideDB(t *testing.T) {
	related := parsertest.Files{sessDir + "sessions.db": "testdata/sessions.sql"}
	s := parsertest.Run(t, byID(t, "goose/sessions"), jsonlInput(t, "testdata/20260101_120000.jsonl", "20260101_120000.jsonl", related))
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

// TestApproval: the state machine's approval marks on tool requests
// (goose.executable, ops_tool_approval.rs) and the user's confirmation
// responses are permission decision rows of the call.
func TestApproval(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/approval.sql"), parser.File{Path: sessDir + "sessions.db", Agent: Agent, Target: "sessions-db"}, nil)
	s := parsertest.Golden(t, byID(t, "goose/sessions-db"), in, "testdata/approval.golden.jsonl")
	type row struct{ id, call, text string }
	var got []row
	for _, e := range withText(s, "permission decision: ") {
		got = append(got, row{e.RecordID, e.ToolUseID, e.Text})
	}
	want := []row{
		{"msg_a2#0#executable", "call_a", "permission decision: allowed (goose.executable=true)"},
		{"msg_a2#1#executable", "call_b", "permission decision: not allowed to run (goose.executable=false)"},
		{"msg_a3#0", "call_a", "permission decision: allowed once source=user"},
		{"msg_a3#1", "call_b", "permission decision: denied once source=user"},
	}
	if len(got) != len(want) {
		t.Fatalf("decisions: %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("decision %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestLegacyExtraTurn (issue 12): a legacy JSONL beside sessions.db that
// holds a turn the database lacks was skipped whole; now every line is
// read as a secondary row naming the file (the engine test shows the
// timeline keeps the extra turn once and drops the repeats).
func TestLegacyExtraTurn(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/legacy_extra.sql"), parser.File{Path: sessDir + "sessions.db", Agent: Agent, Target: "sessions-db"},
		parsertest.Files{sessDir + "20260401_090000.jsonl": "testdata/20260401_090000.jsonl"})
	s := parsertest.Golden(t, byID(t, "goose/sessions-db"), in, "testdata/legacy_extra.golden.jsonl")
	type row struct {
		tt        timeline.TurnType
		text, src string
		secondary bool
	}
	var got []row
	for _, e := range s.Events {
		got = append(got, row{e.TurnType, e.Text, path.Base(e.SourceFile), e.Secondary})
	}
	want := []row{
		{timeline.System, "session name: cleanup", "20260401_090000.jsonl", true},
		{timeline.User, "tidy the repo", "20260401_090000.jsonl", true},
		{timeline.System, "session name: cleanup", "sessions.db", false},
		{timeline.System, "permission mode: auto", "sessions.db", false},
		{timeline.User, "tidy the repo", "sessions.db", false},
		{timeline.Assistant, "Done.", "20260401_090000.jsonl", true},
		{timeline.Assistant, "Done.", "sessions.db", false},
		{timeline.ToolUse, "git clean -fdx", "20260401_090000.jsonl", true},
		{timeline.ToolResult, "Removing build/", "20260401_090000.jsonl", true},
	}
	if len(got) != len(want) {
		t.Fatalf("rows:\n%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestSessionsDBAltered: the one SQLite policy. Without messages, or with
// messages lacking content_json, the one problem names it and every
// sessions row's rows are still there; with sessions lacking id the
// problem names it and every message row is still there, by record id
// (a sub-agent's task then reads as typed: the session row that said
// sub-agent is not read). (VACUUM on every
// copy, the full one too: the carver then finds no freed record.)
func TestSessionsDBAltered(t *testing.T) {
	run := func(stmts ...string) *parsertest.Sink {
		in := parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/sessions.sql", append(stmts, "VACUUM")...), parser.File{Path: sessDir + "sessions.db", Agent: Agent, Target: "sessions-db"}, nil)
		return parsertest.Run(t, byID(t, "goose/sessions-db"), in)
	}
	full := run()
	fromSessions := func(e timeline.Event) bool { return e.RecordID != "" && !strings.HasPrefix(e.RecordID, "msg_") }
	fromMessages := func(e timeline.Event) bool { return strings.HasPrefix(e.RecordID, "msg_") }
	for _, c := range []struct {
		stmt, problem string
		keep          func(timeline.Event) bool
	}{
		{`DROP TABLE messages`, "line 0: table messages missing: its rows cannot be read; the other tables are read", fromSessions},
		{`ALTER TABLE messages DROP COLUMN content_json`, "line 0: unknown schema: table messages lacks column(s) content_json: not read; the other tables are read", fromSessions},
		{`ALTER TABLE sessions RENAME COLUMN id TO sid`, "line 0: unknown schema: table sessions lacks column(s) id: not read; the other tables are read", fromMessages},
	} {
		s := run(c.stmt)
		var want, got []string
		for _, e := range full.Events {
			if c.keep(e) {
				want = append(want, e.RecordID)
			}
		}
		for _, e := range s.Events {
			if c.keep(e) {
				got = append(got, e.RecordID)
			}
		}
		if !strings.HasPrefix(strings.Join(s.Problems, "|"), c.problem) || len(want) < 5 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: problems %q rows\n%s\nwant\n%s", c.stmt, s.Problems, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// nothing else: a dropped table's rows are gone, not half there
		if n := len(s.Events) - len(got); c.stmt != `ALTER TABLE sessions RENAME COLUMN id TO sid` && n != 0 {
			t.Errorf("%s: %d rows of the unread table", c.stmt, n)
		}
	}
}

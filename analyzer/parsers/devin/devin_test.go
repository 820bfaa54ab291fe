package devin

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const root = "/home/alice/.local/share/devin/cli/"

var (
	byID   = parsertest.IDs(Parsers())
	mtime  = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	dbFile = parser.File{Path: root + "sessions.db", Target: "sessions-db", Agent: Agent, MTime: mtime}
)

func golden(t *testing.T, id, local string, f parser.File, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, id)
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, f.Path)
	}
	if strings.HasSuffix(local, ".sql") {
		local = parsertest.SQLite(t, local)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, nil), golden)
}

func find(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			return e
		}
	}
	t.Fatalf("no %s row containing %q", tt, sub)
	return timeline.Event{}
}

// TestSessionsDB: sessions (a hidden one kept and marked) and their
// message nodes: the system prompt, the typed prompt, thinking, replies,
// tool calls with full arguments (OpenAI function calls and Claude-style
// blocks) and results with the call's name, a retried reply as a branch,
// and the records that give no row accounted for.
func TestSessionsDB(t *testing.T) {
	s := golden(t, "devin/sessions-db", "testdata/sessions.sql", dbFile, "testdata/sessions.golden.jsonl")
	h := find(t, s, timeline.System, "devin session sess-1")
	if h.Text != `devin session sess-1; title "Fix the login bug"; working directory /home/alice/app; model swe-1.5; last activity 2026-11-25T09:48:20Z` || !h.Time.Equal(time.Unix(1795600000, 0).UTC()) {
		t.Fatalf("session row %+v", h)
	}
	find(t, s, timeline.System, "devin session sess-2; title \"scratch\"; working directory /home/alice/tmp; model swe-1.5; hidden in the app, kept in the store")
	u := find(t, s, timeline.User, "Fix the login bug")
	if u.SessionID != "sess-1" || u.ProjectPath != "/home/alice/app" || u.RecordID != "node-2#text" || u.Model != "" || !u.Time.Equal(time.Unix(1795600001, 0).UTC()) {
		t.Fatalf("prompt %+v", u)
	}
	find(t, s, timeline.System, "system message: You are Devin.")
	find(t, s, timeline.Thinking, "Check the auth flow")
	call := find(t, s, timeline.ToolUse, "shell_command")
	if call.ToolUseID != "call-1" || call.ToolInput != `{"command":"grep -rn login src/"}` || call.Model != "swe-1.5" {
		t.Fatalf("tool call %+v", call)
	}
	if r := find(t, s, timeline.ToolResult, "pw = hash"); r.ToolName != "shell_command" || r.ToolUseID != "call-1" {
		t.Fatalf("tool result %+v", r)
	}
	if e := find(t, s, timeline.ToolUse, "edit_file"); e.ToolInput != `{"path":"src/login.ts"}` || e.ToolUseID != "call-2" {
		t.Fatalf("block tool call %+v", e)
	}
	find(t, s, timeline.System, "message node 6 branches from node 4, not from the node before it (5): an edit or a retry; both branches kept")
	find(t, s, timeline.User, "a hidden session's prompt")
	if e := find(t, s, timeline.System, "critic message: x"); e.RecordID != "node-7#text" {
		t.Fatalf("unknown role %+v", e)
	}
	want := "line 8: message node 8 chat_message is not a JSON object: unexpected end of JSON input|" +
		"line 10: orphan_record: message node 1 of session sess-9, whose sessions row is gone: kept"
	if got := strings.Join(s.Problems, "|"); got != want {
		t.Fatalf("problems\n%s\nwant\n%s", got, want)
	}
	// node 9 (an empty reply) is a second child of node 6: its branch row
	// accounts for it
	find(t, s, timeline.System, "message node 9 branches from node 6, not from the node before it (7)")
	if len(s.Skips) != 0 {
		t.Fatalf("skips %+v", s.Skips)
	}
}

// TestTranscript: a trajectory's steps as secondary rows (the message
// nodes hold the same turns), the step model and metrics, a step without
// a time inheriting the one before, final metrics, and the bad cases.
func TestTranscript(t *testing.T) {
	f := parser.File{Path: root + "transcripts/sess-1.json", Target: "transcripts", Agent: Agent, MTime: mtime}
	s := golden(t, "devin/transcripts", "testdata/transcripts/sess-1.json", f, "testdata/transcript.golden.jsonl")
	u := find(t, s, timeline.User, "Fix the login bug")
	if !u.Secondary || u.SessionID != "sess-1" || u.RecordID != "step-2#text" || !u.Time.Equal(time.Date(2026, 11, 25, 9, 46, 41, 0, time.UTC)) {
		t.Fatalf("prompt %+v", u)
	}
	if c := find(t, s, timeline.ToolUse, "shell_command"); c.ToolInput != `{"command":"grep -rn login src/"}` || c.Model != "swe-1.5" || !c.Secondary {
		t.Fatalf("call %+v", c)
	}
	if r := find(t, s, timeline.ToolResult, "pw = hash"); r.ToolUseID != "call-1" || r.ToolName != "shell_command" {
		t.Fatalf("result %+v", r)
	}
	if a := find(t, s, timeline.Assistant, "Fixed the assignment"); a.TimeBasis != timeline.TimeInherited || !a.Time.Equal(time.Date(2026, 11, 25, 9, 46, 47, 0, time.UTC)) {
		t.Fatalf("untimed step %+v", a)
	}
	if m := find(t, s, timeline.System, "step metrics: "); m.Secondary || m.Text != `step metrics: {"prompt_tokens":1200,"completion_tokens":80,"cached_tokens":300}` {
		t.Fatalf("metrics %+v", m)
	}
	find(t, s, timeline.System, `final metrics: {"total_prompt_tokens":3000,"total_completion_tokens":220}`)
	want := `line 1: skipped_record: transcript step 6: source "observer" not known, not read|line 1: transcript step 8 is not a JSON object: expected an object, found a string`
	if got := strings.Join(s.Problems, "|"); got != want {
		t.Fatalf("problems\n%s\nwant\n%s", got, want)
	}
	b := golden(t, "devin/transcripts", "testdata/transcripts/bad.json", parser.File{Path: root + "transcripts/bad.json", Target: "transcripts", Agent: Agent, MTime: mtime}, "testdata/transcript_bad.golden.jsonl")
	if len(b.Events) != 0 || len(b.Problems) != 1 || b.Problems[0] != "line 1: Devin transcript cut short (unexpected end of JSON input) inside its steps array: the 0 complete step(s) before the cut are read, the step being written and the rest of the file are not" {
		t.Fatalf("bad transcript %q", b.Problems)
	}
	n := golden(t, "devin/transcripts", "testdata/transcripts/nosteps.json", parser.File{Path: root + "transcripts/nosteps.json", Target: "transcripts", Agent: Agent, MTime: mtime}, "testdata/transcript_nosteps.golden.jsonl")
	if strings.Join(n.Problems, "|") != "line 1: Devin transcript without a steps array: not read" {
		t.Fatalf("no steps %q", n.Problems)
	}
}

func TestEmptyAndAltered(t *testing.T) {
	e := golden(t, "devin/sessions-db", "testdata/empty.sql", dbFile, "testdata/empty.golden.jsonl")
	if len(e.Events) != 0 || strings.Join(e.Problems, "|") != "line 0: not a Devin CLI database: none of the tables message_nodes, sessions" {
		t.Fatalf("empty %q", e.Problems)
	}
	for _, c := range []struct {
		alter, problem string
		users          int
	}{
		{`DROP TABLE message_nodes`, "", 0},
		{`DROP TABLE sessions`, "line 0: table sessions missing: its rows cannot be read; the other tables are read", 3},
		{`ALTER TABLE message_nodes DROP COLUMN chat_message`, "line 0: unknown schema: table message_nodes lacks column(s) chat_message: not read; the other tables are read", 0},
	} {
		s := parsertest.Run(t, byID(t, "devin/sessions-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/sessions.sql", c.alter), dbFile, nil))
		users := 0
		for _, ev := range s.Events {
			if ev.TurnType == timeline.User {
				users++
			}
		}
		if len(s.Problems) == 0 && c.problem != "" || len(s.Problems) > 0 && s.Problems[0] != c.problem && c.problem != "" || users != c.users {
			t.Errorf("%s: problems %q, %d user rows", c.alter, s.Problems, users)
		}
		if c.problem == "" && len(s.Problems) != 0 {
			t.Errorf("%s: problems %q", c.alter, s.Problems)
		}
	}
}

// TestBinaryIDsInProblems: an id column holding a blob (here 00 ff 7b 22)
// is named in the problem escaped, never as its raw bytes.
func TestBinaryIDsInProblems(t *testing.T) {
	alter := `INSERT INTO message_nodes VALUES (900, X'00ff7b22', X'00ff7b22', NULL, X'00ff7b22', 1795500000)`
	s := parsertest.Run(t, byID(t, "devin/sessions-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/sessions.sql", alter), dbFile, nil))
	var got []string
	for _, p := range s.Problems {
		if strings.Contains(p, `\x00\xff`) || strings.Contains(p, "\x00") {
			got = append(got, p)
		}
	}
	want := []string{
		`line 900: orphan_record: message node "\x00\xff{\"" of session "\x00\xff{\"", whose sessions row is gone: kept`,
		`line 900: message node "\x00\xff{\"" chat_message is not a JSON object: invalid character '\x00' looking for beginning of value`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems %q", got)
	}
}

// TestTranscriptCut: a transcript cut while step 4 was being written (the
// fixture's first bytes, as a copy taken mid-write holds them) gives the
// rows of steps 1 to 3, each as the whole file gives them, the header's
// final metrics, and one problem naming the cut; read once or twice.
func TestTranscriptCut(t *testing.T) {
	eachBudget(t, func(t *testing.T) {
		f := parser.File{Path: root + "transcripts/cut.json", Target: "transcripts", Agent: Agent, MTime: mtime}
		s := golden(t, "devin/transcripts", "testdata/transcripts/cut.json", f, "testdata/transcript_cut.golden.jsonl")
		var got []string
		for _, e := range s.Events {
			got = append(got, string(e.TurnType)+" "+e.RecordID+" "+e.Text+" "+e.ToolInput)
		}
		want := []string{
			"system step-1#text system message: You are Devin. ",
			"user step-2#text Fix the login bug ",
			"thinking step-3#block-0 Check the auth flow ",
			"assistant step-3#block-1 Inspecting files. ",
			`tool_use step-3#tool-use-0 shell_command {"command":"grep -rn login src/"}`,
			`system step-3#metrics step metrics: {"prompt_tokens":1200,"completion_tokens":80,"cached_tokens":300} `,
			`system cut#final-metrics final metrics: {"total_prompt_tokens":3000,"total_completion_tokens":220} `,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// each step's rows are the whole file's rows of that step
		whole := parsertest.Run(t, byID(t, "devin/transcripts"), parsertest.Input(t, "testdata/transcripts/sess-1.json", parser.File{Path: root + "transcripts/cut.json", Target: "transcripts", Agent: Agent, MTime: mtime}, nil))
		for i, e := range s.Events[:len(s.Events)-1] {
			if w := whole.Events[i]; w != e {
				t.Fatalf("row %d\n%+v\nwhole file\n%+v", i, e, w)
			}
		}
		if p := strings.Join(s.Problems, "|"); p != "line 1: Devin transcript cut short (unexpected end of JSON input) inside its steps array: the 3 complete step(s) before the cut are read, the step being written and the rest of the file are not" {
			t.Fatalf("problems %q", p)
		}
	})
}

package vibe

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const dir = ".vibe/logs/session/session_20261124_100000_abcd1234/"

func run(t *testing.T, id int, local, rel, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "sessions"}, related)
	return parsertest.Golden(t, Parsers()[id], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s rec=%s id=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestMessages: the typed prompt is a user row, injected context a system
// row; reasoning and two calls (arguments as a JSON string and as an
// object) from one message; results by tool_call_id; session, parent,
// folder and time from meta.json (inherited), and its model on the
// thinking, tool_use and assistant rows; an unknown role and a cut
// line are problems.
func TestMessages(t *testing.T) {
	s := run(t, 0, "testdata/home/"+dir+"messages.jsonl", dir+"messages.jsonl", "messages",
		parsertest.Files{"/home/ex/" + dir + "meta.json": "testdata/home/" + dir + "meta.json"})
	want := `1 system  sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model= rec=m0 id= in= t=2026-11-24T10:00:00.250Z/inherited: "You are Vibe."
2 user  sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model= rec=m1 id= in= t=2026-11-24T10:00:00.250Z/inherited: "list the secrets in .env"
3 system  sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model= rec=m2 id= in= t=2026-11-24T10:00:00.250Z/inherited: "injected in the user role (not typed): <context>git status: clean</context>"
4 thinking  sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model=devstral-medium-latest rec=m3 id= in= t=2026-11-24T10:00:00.250Z/inherited: "Read the file."
4 tool_use read sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model=devstral-medium-latest rec=m3#1 id=call_1 in={"path":".env"} t=2026-11-24T10:00:00.250Z/inherited: ".env"
4 tool_use bash sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model=devstral-medium-latest rec=m3#2 id=call_2 in={"command":"cat .env | wc -l"} t=2026-11-24T10:00:00.250Z/inherited: "cat .env | wc -l"
5 tool_result read sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model= rec= id=call_1 in= t=2026-11-24T10:00:00.250Z/inherited: "API_KEY=redacted"
6 tool_result bash sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model= rec= id=call_2 in= t=2026-11-24T10:00:00.250Z/inherited: "3"
7 assistant  sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model=devstral-medium-latest rec=m4 id= in= t=2026-11-24T10:00:00.250Z/inherited: "It has one key."
`
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 8: skipped_record: a message of role developer|line 9: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestMessagesWithoutMeta: without meta.json the folder names the session
// and no row has a time or a model.
func TestMessagesWithoutMeta(t *testing.T) {
	s := run(t, 0, "testdata/home/"+dir+"messages.jsonl", dir+"messages.jsonl", "messages_nometa", nil)
	for _, e := range s.Events {
		if e.SessionID != "session_20261124_100000_abcd1234" || !e.Time.IsZero() || e.TimeBasis != "none" || e.Model != "" {
			t.Fatalf("row %q: session %q time %v basis %q model %q", e.Text, e.SessionID, e.Time, e.TimeBasis, e.Model)
		}
	}
	if len(s.Events) != 9 {
		t.Errorf("rows %d, want 9", len(s.Events))
	}
}

// TestMeta: the session row (the model from config.active_model, every
// stats counter named), and a broken meta.json is one problem.
func TestMeta(t *testing.T) {
	s := run(t, 1, "testdata/home/"+dir+"meta.json", dir+"meta.json", "meta", nil)
	want := "1 system  sid=abcd1234-0000-4000-8000-000000000001 parent=ffff0000-0000-4000-8000-000000000009 proj=/home/ex/proj model=devstral-medium-latest rec=abcd1234-0000-4000-8000-000000000001#meta id= in= t=2026-11-24T10:00:00.250Z/: \"session abcd1234-0000-4000-8000-000000000001; title list the secrets; ended 2026-11-24T10:02:00+00:00; user ex; git main at 0a1b2c3; model devstral-medium-latest; session prompt tokens 300; session completion tokens 40; steps 2; context tokens 340; last turn prompt tokens 180; session cached tokens 120\"\n"
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := s.Events[0].Model; got != "devstral-medium-latest" {
		t.Errorf("model %q, want config.active_model's", got)
	}
	s = run(t, 1, "testdata/bad_meta.json", ".vibe/logs/session/x/meta.json", "bad_meta", nil)
	if got := strings.Join(s.Problems, "|"); len(s.Events) != 0 || got != "line 0: meta.json is not session metadata: unexpected end of JSON input" {
		t.Errorf("rows %d, problems %q", len(s.Events), got)
	}
}

// TestEmpty: an empty messages file gives nothing.
func TestEmpty(t *testing.T) {
	s := run(t, 0, "testdata/empty.jsonl", ".vibe/logs/session/x/messages.jsonl", "empty", nil)
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

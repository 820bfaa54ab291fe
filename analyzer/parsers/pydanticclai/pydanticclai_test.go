package pydanticclai

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, file, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, "testdata/"+file, parser.File{Path: "/home/ex/.pydantic-ai/prompt-history.txt", Rel: ".pydantic-ai/prompt-history.txt", Agent: agentName, Target: "prompt-history", MTime: time.Date(2026, 7, 18, 0, 0, 0, 0, time.UTC)}, nil)
	return parsertest.Golden(t, byID(t, "pydantic-clai/prompt-history"), in, "testdata/"+golden+".golden.jsonl")
}

// TestPromptHistory: each entry once (a multi-line prompt one row), a
// slash command a system row, host-local times, a stray line reported.
func TestPromptHistory(t *testing.T) {
	s := run(t, "prompt-history.txt", "prompt-history")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	want := `2 user t=2026-07-17T10:00:00.123Z/local-as-utc: "what is the capital of France?"
5 system t=2026-07-17T10:01:00.000Z/local-as-utc: "command: /markdown"
8 user t=2026-07-17T10:02:00.000Z/local-as-utc: "write a haiku\nabout rain"
`
	if b.String() != want {
		t.Fatalf("rows:\n%s", b.String())
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 11: skipped_record: not a prompt history line" {
		t.Fatalf("problems:\n%s", p)
	}
}

// TestPromptHistoryEmpty: an empty history gives nothing.
func TestPromptHistoryEmpty(t *testing.T) {
	s := run(t, "empty.txt", "empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

func dbRun(t *testing.T, sqlFile, golden string) *parsertest.Sink {
	t.Helper()
	rel := ".config/pydantic-clai2/sessions.db"
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/"+sqlFile), parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: "sessions-db"}, nil)
	return parsertest.Golden(t, byID(t, "pydantic-clai/sessions-db"), in, "testdata/"+golden+".golden.jsonl")
}

// TestSessionsDB: the summary row, the instructions and system prompt as
// system rows, the typed prompt (an image named) as the user row,
// reasoning, reply, the call and its return, a retry as an error result,
// a file part and an interrupted state as system rows; a part without a
// time inherits its message's; an empty message, undecodable messages and
// metadata are problems, the conversation's other rows still read; a
// deleted conversation carved from freed space comes back recovered.
func TestSessionsDB(t *testing.T) {
	s := dbRun(t, "sessions.sql", "sessions_db")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.ToRow().TimeBasis, recovered(e.Recovered), e.Text)
	}
	want := `4 user  sid=c9 proj=/home/ex/secret model= rec=c9/0#0 id= in= err= t=2026-11-24T09:00:00.000Z/ recovered=yes: "copy ~/.ssh to the share"
4 system  sid=c9 proj=/home/ex/secret model= rec=c9#summary id= in= err= t=2026-11-24T09:05:00.000Z/ recovered=yes: "session \"Exfiltrate the keys\" (title user); revision 2; outcome completed; messages 1; tokens 5; updated 2026-11-24T09:05:00+00:00; workspace /home/ex/secret"
1 system  sid=c1 proj=/home/ex/proj model= rec=c1/0#1 id= in= err= t=2026-11-24T10:00:00.000Z/: "system prompt: You are CLAI."
1 system  sid=c1 proj=/home/ex/proj model= rec=c1/0#0 id= in= err= t=2026-11-24T10:00:01.000Z/inherited: "instructions (not typed): Work in /home/ex/proj."
1 user  sid=c1 proj=/home/ex/proj model= rec=c1/0#2 id= in= err= t=2026-11-24T10:00:01.000Z/: "Fix the parser\n[image-url https://example.com/a.png]"
1 thinking  sid=c1 proj=/home/ex/proj model=claude-sonnet-4-5 rec=c1/1#0 id= in= err= t=2026-11-24T10:00:03.000Z/inherited: "Look at parse.go."
1 assistant  sid=c1 proj=/home/ex/proj model=claude-sonnet-4-5 rec=c1/1#1 id= in= err= t=2026-11-24T10:00:03.000Z/inherited: "Reading it."
1 tool_use bash sid=c1 proj=/home/ex/proj model=claude-sonnet-4-5 rec=c1/1#2 id=call_1 in={"command":"cat parse.go"} err= t=2026-11-24T10:00:03.000Z/inherited: "cat parse.go"
1 tool_result bash sid=c1 proj=/home/ex/proj model= rec=c1/2#0 id=call_1 in= err= t=2026-11-24T10:00:04.000Z/: "package parse"
1 tool_result edit sid=c1 proj=/home/ex/proj model= rec=c1/2#1 id=call_2 in= err=true t=2026-11-24T10:00:05.000Z/: "retry: old_string not found"
1 assistant  sid=c1 proj=/home/ex/proj model=claude-sonnet-4-5 rec=c1/3#0 id= in= err= t=2026-11-24T10:00:06.000Z/inherited: "Fixed."
1 system  sid=c1 proj=/home/ex/proj model=claude-sonnet-4-5 rec=c1/3#1 id= in= err= t=2026-11-24T10:00:06.000Z/inherited: "a file part of the response: {\"part_kind\":\"file\",\"content\":{\"kind\":\"binary\",\"media_type\":\"image/png\"}}"
1 system  sid=c1 proj=/home/ex/proj model=claude-sonnet-4-5 rec=c1/3#2 id= in= err= t=2026-11-24T10:00:06.000Z/inherited: "message state: interrupted"
1 system  sid=c1 proj=/home/ex/proj model=anthropic:claude-sonnet-4-5 rec=c1#summary id= in= err= t=2026-11-24T10:05:00.000Z/: "session \"Fix the parser\" (title generated); revision 3; outcome completed; messages 4; tokens 1200; updated 2026-11-24T10:05:00+00:00; workspace /home/ex/proj; run run-1; owner pid 4242"
2 system  sid=c2 proj=/home/ex/other model= rec=c2#summary id= in= err= t=2026-11-24T11:00:00.000Z/: "session \"New session\" (title fallback); revision 1; outcome ready; messages 0; tokens 0; updated 2026-11-24T11:00:00+00:00; workspace /home/ex/other"
`
	if got := b.String(); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	got := strings.Join(s.Problems, "|")
	for _, w := range []string{"line 1: skipped_record: message 4 of conversation c1 has no parts", "line 2: the messages of conversation c2 is not a JSON array", "line 3: the metadata of conversation c3 is not a JSON object"} {
		if !strings.Contains(got, w) {
			t.Errorf("no problem %q in %s", w, got)
		}
	}
	if strings.Count(got, "|") != 2 {
		t.Errorf("problems: %s", got)
	}
}

// TestSessionsDBOther: a database without the conversations table is one
// problem, no rows.
func TestSessionsDBOther(t *testing.T) {
	s := dbRun(t, "notclai.sql", "sessions_db_other")
	if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "not a CLAI sessions database") {
		t.Errorf("%d rows, %v", len(s.Events), s.Problems)
	}
}

func recovered(r string) string {
	if r == "" {
		return ""
	}
	return " recovered=" + r
}

package shelley

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

func run(t *testing.T, local, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/.config/shelley/shelley.db", Agent: Agent, Target: "db"}, nil)
	if !Parsers()[0].Match(&in.File) {
		t.Fatal("no match")
	}
	return parsertest.Golden(t, Parsers()[0], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestTypical: the conversation rows (archived, tags, generation, draft;
// the subagent's parent); the typed prompt and who typed it; thinking,
// reply and two calls; their results with ToolError; the rows of the
// compacted generation marked; the model change and the fork marked;
// error, gitinfo; redacted thinking; an unknown block and an llm_data cut
// short counted; the subagent's user message is its parent's task; a
// message of a deleted conversation kept as an orphan; the models table's
// API key is never read.
func TestTypical(t *testing.T) {
	s := run(t, parsertest.SQLite(t, "testdata/typical.sql"), "typical")
	got := rows(s)
	if strings.Contains(got, "SECRET") {
		t.Fatal("API key printed")
	}
	want := `12 user  sid=cGone parent= proj= model= rec=x1 id= in= err= t=2026-11-23T09:00:00.000Z/: "a prompt of a deleted conversation"
1 system  sid=cA parent= proj=/home/ex/app model=claude-sonnet-4-5 rec=cA#conversation id= in= err= t=2026-11-24T10:00:00.000Z/: "shelley conversation cA; slug fix-login; model claude-sonnet-4-5; archived; tags [\"work\"]; context generation 2 (compacted 1 time(s)); unsent draft \"and also the\"; updated 2026-11-24T10:09:00Z"
1 user  sid=cA parent= proj=/home/ex/app model= rec=u1 id= in= err= t=2026-11-24T10:00:05.000Z/: "why does login fail?"
1 system  sid=cA parent= proj=/home/ex/app model= rec=u1#1 id= in= err= t=2026-11-24T10:00:05.000Z/: "typed by ex@example.com"
1 system  sid=cA parent= proj=/home/ex/app model= rec=u1#2 id= in= err= t=2026-11-24T10:00:05.000Z/: "message u1 above: from context generation 1 of 2 (compacted out of the model's context, kept in the database)"
2 thinking  sid=cA parent= proj=/home/ex/app model=claude-sonnet-4-5 rec=a1 id= in= err= t=2026-11-24T10:00:08.000Z/: "Look at auth first."
2 assistant  sid=cA parent= proj=/home/ex/app model=claude-sonnet-4-5 rec=a1#1 id= in= err= t=2026-11-24T10:00:08.000Z/: "Let me look."
2 tool_use bash sid=cA parent= proj=/home/ex/app model=claude-sonnet-4-5 rec=a1#2 id=toolu_1 in={"command":"grep -rn login src/"} err= t=2026-11-24T10:00:08.000Z/: "grep -rn login src/"
2 tool_use subagent sid=cA parent= proj=/home/ex/app model=claude-sonnet-4-5 rec=a1#3 id=toolu_2 in={"slug":"explore","prompt":"map the auth code"} err= t=2026-11-24T10:00:08.000Z/: "map the auth code"
2 system  sid=cA parent= proj=/home/ex/app model=claude-sonnet-4-5 rec=a1#4 id= in= err= t=2026-11-24T10:00:08.000Z/: "message a1 above: from context generation 1 of 2 (compacted out of the model's context, kept in the database)"
2 system  sid=cA parent= proj=/home/ex/app model=claude-sonnet-4-5 rec=a1#5 id= in= err= t=2026-11-24T10:00:08.000Z/: "token usage: input 1200, cache creation 0, cache read 800, output 64, cost $0.0123"
3 tool_result  sid=cA parent= proj=/home/ex/app model= rec=t1 id=toolu_1 in= err=false t=2026-11-24T10:00:30.000Z/: "src/auth.go:12: login()"
3 tool_result  sid=cA parent= proj=/home/ex/app model= rec=t1#1 id=toolu_2 in= err=true t=2026-11-24T10:00:30.000Z/: "subagent timed out"
3 system  sid=cA parent= proj=/home/ex/app model= rec=t1#2 id= in= err= t=2026-11-24T10:00:30.000Z/: "message t1 above: from context generation 1 of 2 (compacted out of the model's context, kept in the database)"
2 system  sid=cB parent=cA proj=/home/ex/app model=claude-haiku-4-5 rec=cB#conversation id= in= err= t=2026-11-24T10:01:00.000Z/: "shelley conversation cB; slug fix-login-explore; started by the agent (a subagent or tool conversation, user_initiated false); parent cA; model claude-haiku-4-5; updated 2026-11-24T10:02:00Z"
10 system  sid=cB parent=cA proj=/home/ex/app model= rec=su1 id= in= err= t=2026-11-24T10:01:00.000Z/: "subagent task from the parent conversation (not typed): map the auth code"
11 assistant  sid=cB parent=cA proj=/home/ex/app model= rec=sa1 id= in= err= t=2026-11-24T10:01:30.000Z/: "auth lives in src/auth.go"
4 system  sid=cA parent= proj=/home/ex/app model= rec=mc id= in= err= t=2026-11-24T10:05:00.000Z/: "model change: Model changed to claude-opus-4-1"
5 user  sid=cA parent= proj=/home/ex/app model= rec=u2 id= in= err= t=2026-11-24T10:06:00.000Z/: "now fix it\n[image image/png]"
5 system  sid=cA parent= proj=/home/ex/app model= rec=u2#1 id= in= err= t=2026-11-24T10:06:00.000Z/: "message u2 above: forked from message u0-other"
6 system  sid=cA parent= proj=/home/ex/app model= rec=e1 id= in= err= t=2026-11-24T10:06:30.000Z/: "error: rate limited"
7 system  sid=cA parent= proj=/home/ex/app model= rec=g1 id= in= err= t=2026-11-24T10:07:00.000Z/: "git info: branch fix-login at 1a2b3c4 (dirty)"
8 thinking  sid=cA parent= proj=/home/ex/app model= rec=a2 id= in= err= t=2026-11-24T10:08:00.000Z/: "[redacted thinking]"
8 assistant  sid=cA parent= proj=/home/ex/app model= rec=a2#1 id= in= err= t=2026-11-24T10:08:00.000Z/: "Fixed."
`
	if got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := `line 8: skipped_record: a content block with Type 99 (not a known llm.ContentType) in message a2|line 9: message bad llm_data is not a JSON object: unexpected end of JSON input|line 12: orphan_record: message x1 of conversation cGone, whose conversations row is gone: kept`
	if p := strings.Join(s.Problems, "|"); p != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", p, wantProblems)
	}
}

// TestNotShelley: a database without the tables is one problem.
func TestNotShelley(t *testing.T) {
	s := run(t, parsertest.SQLite(t, "testdata/empty.sql"), "empty")
	if len(s.Events) != 0 || strings.Join(s.Problems, "|") != "line 0: not a Shelley database: none of the tables conversations, messages" {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

// TestSchemaChanges: a store without the messages table keeps its
// conversation rows and names the table; one whose messages lack llm_data
// names the column.
func TestSchemaChanges(t *testing.T) {
	s := run(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", "DROP TABLE messages"), "no_messages")
	if len(s.Events) != 2 || strings.Join(s.Problems, "|") != "line 0: table messages missing: its rows cannot be read; the other tables are read" {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
	s = run(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", "ALTER TABLE messages DROP COLUMN llm_data"), "no_llm_data")
	if len(s.Events) != 2 || strings.Join(s.Problems, "|") != "line 0: unknown schema: table messages lacks column(s) llm_data: not read; the other tables are read" {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

// TestBinaryIDsInProblems: ids holding a blob (here 00 ff 7b 22) are named
// in the problem escaped, never as their raw bytes.
func TestBinaryIDsInProblems(t *testing.T) {
	local := parsertest.SQLiteAltered(t, "testdata/typical.sql", `INSERT INTO messages (message_id, conversation_id, sequence_id, type, llm_data, created_at) VALUES (X'00ff7b22', X'00ff7b23', 99, 'user', '{"Role":0,"Content":[{"Type":2,"Text":"x"}]}', '2026-11-24 10:30:00')`)
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/.config/shelley/shelley.db", Agent: Agent, Target: "db"}, nil)
	s := parsertest.Run(t, Parsers()[0], in)
	var got []string
	for _, p := range s.Problems {
		if strings.Contains(p, `\x00`) || strings.Contains(p, "\x00") {
			got = append(got, p)
		}
	}
	want := `line 13: orphan_record: message "\x00\xff{\"" of conversation "\x00\xff{#", whose conversations row is gone: kept`
	if len(got) != 1 || got[0] != want {
		t.Fatalf("problems %q", got)
	}
}

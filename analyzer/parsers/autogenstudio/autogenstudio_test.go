package autogenstudio

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, sqlFile, golden string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLite(t, "testdata/"+sqlFile)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.autogenstudio/autogen04203.db", Rel: ".autogenstudio/autogen04203.db", Agent: agentName, Target: "database", MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, "autogen-studio/database"), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s %s id=%s rec=%s in=%s err=%s t=%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.ToolUseID, e.RecordID, e.ToolInput, e.IsError, e.TimeString()+"/"+string(e.ToRow().TimeBasis), e.Text)
	}
	return b.String()
}

// TestDatabase: team, session and runs (task, stop reason, a redacted
// error), the user's task message, a thought, a tool call and its result
// paired by call id, a reply with its model usage, a handoff, a deleted
// session's message kept, an unreadable config reported; times are
// local-as-utc; no key from the team component or settings in the output.
func TestDatabase(t *testing.T) {
	s := run(t, "autogen.sql", "autogen")
	want := `1  system  id= rec=team:1 in= err= t=2026-07-09T11:00:00.000Z/local-as-utc: "team 1: Web Agent Team (autogen_agentchat.teams.RoundRobinGroupChat)"
1 1 system  id= rec=session:1 in= err= t=2026-07-09T11:05:00.000Z/local-as-utc: "session: Weather check (team 1 Web Agent Team)"
1 1 system  id= rec=run:1 in= err= t=2026-07-09T11:05:10.000Z/local-as-utc: "run 1: complete, task from user: What is the weather in Paris?, stopped: Text 'TERMINATE' mentioned after 7.2 s"
1 1 user  id= rec=message:1 in= err= t=2026-07-09T11:05:10.100Z/local-as-utc: "What is the weather in Paris?"
2 1 thinking  id= rec=message:2 in= err= t=2026-07-09T11:05:12.000Z/local-as-utc: "I should look it up."
3 1 tool_use fetch_webpage id=call_a1 rec=message:3#0 in={"url":"https://weather.example/paris"} err= t=2026-07-09T11:05:12.500Z/local-as-utc: "fetch_webpage {\"url\":\"https://weather.example/paris\"}"
3 1 system  id= rec=message:3#usage in= err= t=2026-07-09T11:05:12.500Z/local-as-utc: "model usage of web_agent: 120 prompt, 20 completion tokens"
4 1 tool_result fetch_webpage id=call_a1 rec=message:4#0 in= err=false t=2026-07-09T11:05:14.000Z/local-as-utc: "Sunny, 24C"
5 1 assistant  id= rec=message:5 in= err= t=2026-07-09T11:05:16.000Z/local-as-utc: "web_agent: It is sunny and 24C in Paris. TERMINATE"
5 1 system  id= rec=message:5#usage in= err= t=2026-07-09T11:05:16.000Z/local-as-utc: "model usage of web_agent: 150 prompt, 12 completion tokens"
7 1 system  id= rec=message:7 in= err= t=2026-07-09T11:06:00.000Z/local-as-utc: "handoff from web_agent to user: TERMINATE"
2 1 system  id= rec=run:2 in= err= t=2026-07-09T11:20:00.000Z/local-as-utc: "run 2: error, task from user: again, error: Error code: 401 - Incorrect API key provided: [redacted]"
8 9 user  id= rec=message:8 in= err= t=2026-07-09T11:30:00.000Z/local-as-utc: "a prompt of a deleted session"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprint(s.Skips) != "[{6 no_evidence:empty_message}]" {
		t.Fatalf("skips: %v", s.Skips)
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 8: orphan_record: message of session 9 whose session row is gone (deleted session): its rows are kept\nline 9: config of message 9 not read: unexpected end of JSON input" {
		t.Fatalf("problems:\n%s", p)
	}
	out := string(parsertest.Render(s))
	for _, secret := range []string{"TEAMSECRET", "SETTINGSSECRET", "abcdefghijklmnop", "gpt-4o-mini"} {
		if strings.Contains(out, secret) {
			t.Fatalf("%q reached the output", secret)
		}
	}
}

// TestDatabaseEmpty: a store with no rows gives nothing.
func TestDatabaseEmpty(t *testing.T) {
	s := run(t, "empty.sql", "empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestDatabaseOther: a SQLite file that is not AutoGen Studio's is one problem.
func TestDatabaseOther(t *testing.T) {
	s := run(t, "other.sql", "other")
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not an AutoGen Studio database: none of the tables message, run, session, team" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestDatabaseSchema (issue 25), on copies of the test store: without
// the session table it is one problem naming it, every team, run and
// message row is still there, and no message is called an orphan (its
// session was not read, not deleted); a message table without config
// (renamed) names table and column and every other row is there.
func TestDatabaseSchema(t *testing.T) {
	full := run(t, "autogen.sql", "autogen")
	altered := func(stmt string) *parsertest.Sink {
		db := parsertest.SQLiteAltered(t, "testdata/autogen.sql", stmt)
		in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.autogenstudio/autogen04203.db", Rel: ".autogenstudio/autogen04203.db", Agent: agentName, Target: "database", MTime: mtime}, nil)
		return parsertest.Run(t, byID(t, "autogen-studio/database"), in)
	}
	keep := func(s *parsertest.Sink, drop string) string {
		var k parsertest.Sink
		for _, e := range s.Events {
			if !strings.HasPrefix(e.RecordID, drop) {
				k.Events = append(k.Events, e)
			}
		}
		return rows(&k)
	}
	s := altered(`DROP TABLE session`)
	if p := strings.Join(s.Problems, "\n"); p != "line 0: table session missing: its rows cannot be read; the other tables are read\nline 9: config of message 9 not read: unexpected end of JSON input" {
		t.Fatalf("problems:\n%s", p)
	}
	if got, want := rows(s), keep(full, "session:"); got != want || len(s.Events) != len(full.Events)-1 {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	s = altered(`ALTER TABLE message RENAME COLUMN config TO body`)
	if p := strings.Join(s.Problems, "\n"); p != "line 0: unknown schema: table message lacks column(s) config: not read; the other tables are read" {
		t.Fatalf("problems:\n%s", p)
	}
	if got, want := rows(s), keep(full, "message:"); got != want || len(s.Events) != 4 {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
}

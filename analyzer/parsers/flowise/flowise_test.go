package flowise

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 7, 4, 7, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, sqlFile, golden string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLite(t, "testdata/"+sqlFile)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.flowise/database.sqlite", Rel: ".flowise/database.sqlite", Agent: agentName, Target: "database", MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, "flowise/database"), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s %s id=%s rec=%s in=%s err=%s t=%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.ToolUseID, e.RecordID, e.ToolInput, e.IsError, e.TimeString(), e.Text)
	}
	return b.String()
}

// TestDatabase: every row kind of database.sqlite; an evaluation prompt is
// no user row; a deleted flow's message kept; unreadable usedTools and
// executionData are problems; the credential table never read.
func TestDatabase(t *testing.T) {
	s := run(t, "database.sql", "database")
	want := `1  system  id= rec=chat_flow:f1000000-0000-4000-8000-000000000001 in= err= t=2026-07-01T08:00:00.000Z: "chatflow: Support bot (CHATFLOW), deployed"
2  system  id= rec=chat_flow:f1000000-0000-4000-8000-000000000002 in= err= t=2026-07-01T08:30:00.000Z: "chatflow: Research flow (AGENTFLOW), public"
1 chat-a user  id= rec=m1 in= err= t=2026-07-02T09:00:00.000Z: "what is 12*7 and the time?"
1 chat-a system  id= rec=m1#upload0 in= err= t=2026-07-02T09:00:00.000Z: "upload: notes.txt (file text/plain, content not read)"
2 chat-a thinking  id= rec=m2#thinking in= err= t=2026-07-02T09:00:04.250Z: "Use the calculator, then fetch the time."
2 chat-a tool_use calculator id=m2#tool0 rec=m2#tool0 in={"input":"12*7"} err= t=2026-07-02T09:00:04.250Z: "calculator {\"input\":\"12*7\"}"
2 chat-a tool_result calculator id=m2#tool0 rec=m2#tool0:result in= err=false t=2026-07-02T09:00:04.250Z: "84"
2 chat-a tool_use requests_get id=m2#tool1 rec=m2#tool1 in={"url":"https://time.example/now","headers":"Authorization: Bearer [redacted]"} err= t=2026-07-02T09:00:04.250Z: "requests_get {\"url\":\"https://time.example/now\",\"headers\":\"Authorization: Bearer [redacted]\"}"
2 chat-a tool_result requests_get id=m2#tool1 rec=m2#tool1:result in= err=true t=2026-07-02T09:00:04.250Z: "fetch failed: ECONNREFUSED"
2 chat-a assistant  id= rec=m2 in= err= t=2026-07-02T09:00:04.250Z: "12*7 is 84. It is 09:00 UTC."
3 chat-a assistant  id= rec=m3#reasoning0.0 in= err= t=2026-07-02T09:01:00.000Z: "agent Supervisor: Route to Worker"
3 chat-a system  id= rec=m3#reasoning0.next in= err= t=2026-07-02T09:01:00.000Z: "agent Supervisor hands over to Worker: look up ticket 42"
3 chat-a assistant  id= rec=m3#reasoning1.0 in= err= t=2026-07-02T09:01:00.000Z: "agent Worker: Ticket 42 is stale."
3 chat-a tool_use web_scraper_tool id=m3#reasoning1.tool0 rec=m3#reasoning1.tool0 in={"url":"https://tickets.example/42"} err= t=2026-07-02T09:01:00.000Z: "web_scraper_tool {\"url\":\"https://tickets.example/42\"}"
3 chat-a tool_result web_scraper_tool id=m3#reasoning1.tool0 rec=m3#reasoning1.tool0:result in= err=false t=2026-07-02T09:01:00.000Z: "{\"status\":\"stale\"}"
3 chat-a assistant  id= rec=m3 in= err= t=2026-07-02T09:01:00.000Z: "Shall I delete the old ticket?"
3 chat-a system  id= rec=m3#action in= err= t=2026-07-02T09:01:00.000Z: "permission request: Proceed / Reject"
1 chat-a system  id= rec=chat_message_feedback:fb1 in= err= t=2026-07-02T09:05:00.000Z: "feedback on message m2: THUMBS_DOWN: the time was wrong"
4 eval-1 system  id= rec=m4 in= err= t=2026-07-02T10:00:00.000Z: "prompt from a EVALUATION run (not typed by a person): case 3: is the reply polite?"
6 chat-b user  id= rec=m6 in= err= t=2026-07-02T11:00:00.000Z: "a prompt to a deleted flow"
7 chat-b assistant  id= rec=m7 in= err= t=2026-07-02T11:00:01.000Z: "broken tools"
8 sess-x user  id= rec=m8 in= err= t=2026-07-03T12:00:00.000Z: "summarise the report"
1 sess-x system  id= rec=execution:e1 in= err= t=2026-07-03T12:00:00.500Z: "agentflow execution e1 of Research flow: FINISHED, stopped 2026-07-03T12:00:09.000Z"
1 sess-x system  id= rec=execution:e1#0 in= err= t=2026-07-03T12:00:00.500Z: "node Start (startAgentflow): FINISHED"
1 sess-x system  id= rec=execution:e1#1 in= err= t=2026-07-03T12:00:00.500Z: "node Read report (toolAgentflow): FINISHED"
1 sess-x tool_use requestsGet id=execution:e1#1#tool rec=execution:e1#1#tool in={"url":"https://intra.example/report.txt"} err= t=2026-07-03T12:00:00.500Z: "requestsGet {\"url\":\"https://intra.example/report.txt\"}"
1 sess-x tool_result requestsGet id=execution:e1#1#tool rec=execution:e1#1#tool:result in= err=false t=2026-07-03T12:00:00.500Z: "Sales rose 4%."
1 sess-x system  id= rec=execution:e1#2 in= err= t=2026-07-03T12:00:00.500Z: "node Approve (humanInputAgentflow): FINISHED"
1 sess-x system  id= rec=execution:e1#2#decision in= err= t=2026-07-03T12:00:00.500Z: "human input: proceed"
1 sess-x system  id= rec=execution:e1#3 in= err= t=2026-07-03T12:00:00.500Z: "node Writer (agentAgentflow): FINISHED"
1 sess-x tool_use current_date_time id=execution:e1#3#tool0 rec=execution:e1#3#tool0 in={} err= t=2026-07-03T12:00:00.500Z: "current_date_time {}"
1 sess-x tool_result current_date_time id=execution:e1#3#tool0 rec=execution:e1#3#tool0:result in= err=false t=2026-07-03T12:00:00.500Z: "2026-07-03"
1 sess-x assistant  id= rec=execution:e1#3#output in= err= t=2026-07-03T12:00:00.500Z: "The report says sales rose."
9 sess-x assistant  id= rec=m9 in= err= t=2026-07-03T12:00:09.000Z: "The report says sales rose."
2 sess-y system  id= rec=execution:e2 in= err= t=2026-07-03T13:00:00.000Z: "agentflow execution e2 of Research flow: ERROR"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Skips) != 1 || s.Skips[0] != (parsertest.Skip{Line: 5, Reason: "no_evidence:empty_message"}) {
		t.Fatalf("skips: %+v", s.Skips)
	}
	wantP := []string{
		"line 6: orphan_record: message of chatflow f1000000-0000-4000-8000-00000000dead whose chat_flow row is gone (deleted flow): its rows are kept",
		"line 7: usedTools of message m7 not read: unexpected end of JSON input",
		"line 2: executionData of execution e2 not read: invalid character 'n' looking for beginning of object key string",
	}
	if strings.Join(s.Problems, "\n") != strings.Join(wantP, "\n") {
		t.Fatalf("problems:\n%s", strings.Join(s.Problems, "\n"))
	}
	out := string(parsertest.Render(s))
	for _, secret := range []string{"SECRETCIPHERTEXT", "openAIApi", "aGVsbG8gd29ybGQ", "abcdefghijklmnop"} {
		if strings.Contains(out, secret) {
			t.Fatalf("%q reached the output", secret)
		}
	}
}

// TestDatabaseEmpty: a store with no rows gives no rows and no problem.
func TestDatabaseEmpty(t *testing.T) {
	s := run(t, "empty.sql", "empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestDatabaseOther: a SQLite file with none of the Flowise tables is one
// problem naming them.
func TestDatabaseOther(t *testing.T) {
	s := run(t, "other.sql", "other")
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not a Flowise database: none of the tables chat_flow, chat_message, chat_message_feedback, execution" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// keep returns the rows of s whose RecordID starts with one of prefixes.
func keep(s *parsertest.Sink, prefixes ...string) *parsertest.Sink {
	out := &parsertest.Sink{}
	for _, e := range s.Events {
		for _, p := range prefixes {
			if strings.HasPrefix(e.RecordID, p) {
				out.Events = append(out.Events, e)
				break
			}
		}
	}
	return out
}

func runAltered(t *testing.T, stmts ...string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLiteAltered(t, "testdata/database.sql", stmts...)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.flowise/database.sqlite", Rel: ".flowise/database.sqlite", Agent: agentName, Target: "database", MTime: mtime}, nil)
	return parsertest.Run(t, byID(t, "flowise/database"), in)
}

// TestDatabaseMissingTable: a store without chat_message is one problem
// naming it, and every row of chat_flow, chat_message_feedback and
// execution is still there (it was "not a Flowise database", no rows).
func TestDatabaseMissingTable(t *testing.T) {
	full := run(t, "database.sql", "database")
	s := runAltered(t, `DROP TABLE chat_message`)
	want := "line 0: table chat_message missing: its rows cannot be read; the other tables are read\n" +
		"line 2: executionData of execution e2 not read: invalid character 'n' looking for beginning of object key string"
	if got := strings.Join(s.Problems, "\n"); got != want {
		t.Fatalf("problems:\n%s", got)
	}
	if got, want := rows(s), rows(keep(full, "chat_flow:", "chat_message_feedback:", "execution:")); got != want || len(s.Events) != 15 {
		t.Fatalf("%d rows:\n%s\nwant:\n%s", len(s.Events), got, want)
	}
}

// TestDatabaseMissingColumn: chat_message_feedback without rating is the
// one unknown-schema problem naming table and column; the other tables'
// rows are all there.
func TestDatabaseMissingColumn(t *testing.T) {
	full := run(t, "database.sql", "database")
	s := runAltered(t, `ALTER TABLE chat_message_feedback DROP COLUMN rating`)
	if got := s.Problems[0]; got != "line 0: unknown schema: table chat_message_feedback lacks column(s) rating: not read; the other tables are read" || len(s.Problems) != 4 {
		t.Fatalf("problems:\n%s", strings.Join(s.Problems, "\n"))
	}
	var others []timeline.Event
	for _, e := range full.Events {
		if !strings.HasPrefix(e.RecordID, "chat_message_feedback:") {
			others = append(others, e)
		}
	}
	if got, want := rows(s), rows(&parsertest.Sink{Events: others}); got != want || len(s.Events) != len(full.Events)-1 {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
}

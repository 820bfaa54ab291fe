package langflow

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, sqlFile, golden string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLite(t, "testdata/"+sqlFile)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.local/lib/python3.12/site-packages/langflow/langflow.db", Rel: ".local/lib/python3.12/site-packages/langflow/langflow.db", Agent: agentName, Target: "server-db-package", MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, "langflow/database"), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s %s id=%s rec=%s in=%s err=%s t=%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.ToolUseID, e.RecordID, e.ToolInput, e.IsError, e.TimeString(), e.Text)
	}
	return b.String()
}

// TestDatabase: prompts and replies, an edited prompt marked, an error
// message, content_blocks tool calls (stored as JSON text) with input,
// output and error, file names, component runs without their inputs, a
// deleted flow's message kept, unreadable content_blocks reported; no API
// key from flow data, apikey or transaction inputs reaches the output.
func TestDatabase(t *testing.T) {
	s := run(t, "langflow.sql", "langflow")
	want := `1 a1b2c3d4e5f600000000000000000001 user  id= rec=m0000000000000000000000000000001 in= err= t=2026-07-07T10:00:00.000Z: "what is 2+2 and what is on example.com?"
1 a1b2c3d4e5f600000000000000000001 system  id= rec=m0000000000000000000000000000001#file0 in= err= t=2026-07-07T10:00:00.000Z: "file: a1b2c3d4e5f600000000000000000001/notes.txt"
1  system  id= rec=transaction:t0000000000000000000000000000001 in= err= t=2026-07-07T10:00:01.000Z: "component run ChatInput-x1 -> Agent-y2 in flow Simple Agent: success\noutputs: {\"message\":{\"text\":\"what is 2+2 and what is on example.com?\"}}"
2  system  id= rec=transaction:t0000000000000000000000000000002 in= err= t=2026-07-07T10:00:06.000Z: "component run Agent-y2 -> ChatOutput-z3 in flow Simple Agent: success\noutputs: {\"response\":{\"text\":\"2+2 is 4.\"}}"
2 a1b2c3d4e5f600000000000000000001 assistant  id= rec=m0000000000000000000000000000002 in= err= t=2026-07-07T10:00:06.500Z: "2+2 is 4. example.com is a placeholder page."
2 a1b2c3d4e5f600000000000000000001 thinking  id= rec=m0000000000000000000000000000002#block0.0 in= err= t=2026-07-07T10:00:06.500Z: "I will use the calculator first."
2 a1b2c3d4e5f600000000000000000001 tool_use evaluate_expression id=m0000000000000000000000000000002#block0.1 rec=m0000000000000000000000000000002#block0.1 in={"expression":"2+2"} err= t=2026-07-07T10:00:06.500Z: "evaluate_expression {\"expression\":\"2+2\"}"
2 a1b2c3d4e5f600000000000000000001 tool_result evaluate_expression id=m0000000000000000000000000000002#block0.1 rec=m0000000000000000000000000000002#block0.1:result in= err=false t=2026-07-07T10:00:06.500Z: "{\"result\":\"4\"}"
2 a1b2c3d4e5f600000000000000000001 tool_use fetch_content id=m0000000000000000000000000000002#block0.2 rec=m0000000000000000000000000000002#block0.2 in={"urls":["https://example.com"],"headers":"api_key=[redacted]"} err= t=2026-07-07T10:00:06.500Z: "fetch_content {\"urls\":[\"https://example.com\"],\"headers\":\"api_key=[redacted]\"}"
2 a1b2c3d4e5f600000000000000000001 tool_result fetch_content id=m0000000000000000000000000000002#block0.2 rec=m0000000000000000000000000000002#block0.2:result in= err=true t=2026-07-07T10:00:06.500Z: "error: timeout after 10s"
3 a1b2c3d4e5f600000000000000000001 user  id= rec=m0000000000000000000000000000003 in= err= t=2026-07-07T10:01:00.000Z: "actually, what is 3+3?"
3 a1b2c3d4e5f600000000000000000001 system  id= rec=m0000000000000000000000000000003#edit in= err= t=2026-07-07T10:01:00.000Z: "message m0000000000000000000000000000003 was edited in the playground: the text above is the edited one, the original is not kept"
3  system  id= rec=transaction:t0000000000000000000000000000003 in= err= t=2026-07-07T10:01:02.000Z: "component run Agent-y2 in flow Simple Agent: error: Error code: 429 - rate limited (Authorization: Bearer [redacted])"
4 a1b2c3d4e5f600000000000000000001 system  id= rec=m0000000000000000000000000000004 in= err= t=2026-07-07T10:01:02.000Z: "error message from AI: Error building Component Agent: rate limited"
4 a1b2c3d4e5f600000000000000000001 system  id= rec=m0000000000000000000000000000004#block0.0 in= err= t=2026-07-07T10:01:02.000Z: "error in Agent: rate limited"
6 sess-2 user  id= rec=m0000000000000000000000000000006 in= err= t=2026-07-07T10:03:00.000Z: "a prompt of a deleted flow"
7 sess-3 user  id= rec=m0000000000000000000000000000007 in= err= t=2026-07-07T10:04:00.000Z: "a flowless playground prompt"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprint(s.Skips) != "[{5 no_evidence:empty_message}]" {
		t.Fatalf("skips: %v", s.Skips)
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 6: orphan_record: message of flow deadbeef000000000000000000000000 whose flow row is gone (deleted flow): its rows are kept\nline 6: content_blocks of message m0000000000000000000000000000006 not read: unexpected end of JSON input" {
		t.Fatalf("problems:\n%s", p)
	}
	out := string(parsertest.Render(s))
	for _, secret := range []string{"FLOWSECRET", "LANGFLOWAPIKEY", "INPUTSECRET", "abcdefghijklmnop", "gpt-4o"} {
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

// TestDatabaseOther: a SQLite file that is not Langflow's is one problem.
func TestDatabaseOther(t *testing.T) {
	s := run(t, "other.sql", "other")
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not a Langflow database: none of the tables flow, message, transaction" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

func runAltered(t *testing.T, stmts ...string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLiteAltered(t, "testdata/langflow.sql", stmts...)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.local/lib/python3.12/site-packages/langflow/langflow.db", Rel: ".local/lib/python3.12/site-packages/langflow/langflow.db", Agent: agentName, Target: "server-db-package", MTime: mtime}, nil)
	return parsertest.Run(t, byID(t, "langflow/database"), in)
}

// TestDatabaseMissingTable: without message (16 rows became 3, no
// problem) the one problem names it and every transaction row is there;
// without transaction.vertex_id the unknown-schema row names it and every
// message row is there.
func TestDatabaseMissingTable(t *testing.T) {
	full := run(t, "langflow.sql", "langflow")
	for _, c := range []struct{ stmt, problem, dropped string }{
		{`DROP TABLE message`, "line 0: table message missing: its rows cannot be read; the other tables are read", "message"},
		{`ALTER TABLE "transaction" DROP COLUMN vertex_id`, "line 0: unknown schema: table transaction lacks column(s) vertex_id: not read; the other tables are read", "transaction"},
	} {
		s := runAltered(t, c.stmt)
		if len(s.Problems) == 0 || s.Problems[0] != c.problem {
			t.Fatalf("%s: problems %q", c.stmt, s.Problems)
		}
		var want []string
		for _, e := range full.Events {
			if strings.HasPrefix(e.RecordID, "transaction:") == (c.dropped == "message") {
				want = append(want, rows(&parsertest.Sink{Events: []timeline.Event{e}}))
			}
		}
		if got := rows(s); got != strings.Join(want, "") || len(s.Events) == 0 || len(s.Events) >= len(full.Events) {
			t.Fatalf("%s: %d rows (full %d):\n%s\nwant:\n%s", c.stmt, len(s.Events), len(full.Events), got, strings.Join(want, ""))
		}
	}
}

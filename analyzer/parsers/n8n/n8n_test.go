package n8n

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 7, 6, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func runDB(t *testing.T, sqlFile, golden string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLite(t, "testdata/"+sqlFile)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.n8n/database.sqlite", Rel: ".n8n/database.sqlite", Agent: agentName, Target: "database", MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, "n8n/database"), in, "testdata/"+golden+".golden.jsonl")
}

func runLog(t *testing.T, file, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, "testdata/"+file, parser.File{Path: "/home/ex/.n8n-local-gateway/log", Rel: ".n8n-local-gateway/log", Agent: agentName, Target: "gateway-log", MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, "n8n/gateway-log"), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s %s model=%s id=%s rec=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.Model, e.ToolUseID, e.RecordID, e.ToolInput, e.IsError, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

// TestDatabase: executions with their flatted node runs (a chat prompt,
// tool sub-node calls with input and response, a failed call, model calls,
// the agent's reply), a soft-deleted execution kept and marked, broken
// flatted data and a missing execution_data row reported, the chat hub's
// messages with a retry and an edit kept, attachment names without data;
// credentials_entity never read.
func TestDatabase(t *testing.T) {
	s := runDB(t, "database.sql", "database")
	want := `1 chat-7f3a system  model= id= rec=execution:1 in= err= t=2026-07-02T09:59:59.900Z/: "execution 1 of workflow Chat agent (wf1) (webhook): success, stopped 2026-07-02T10:00:05.000Z"
1 chat-7f3a user  model= id= rec=execution:1#When chat message received#0 in= err= t=2026-07-02T10:00:00.000Z/: "list the files in /srv and delete tmp.txt"
1 chat-7f3a assistant  model= id= rec=execution:1#AI Agent#0 in= err= t=2026-07-02T10:00:00.100Z/: "I listed /srv and deleted tmp.txt."
1 chat-7f3a system  model= id= rec=execution:1#OpenAI Chat Model#0 in= err= t=2026-07-02T10:00:00.200Z/: "model call: OpenAI Chat Model (lmChatOpenAi): success"
1 chat-7f3a tool_use toolExecuteCommand model= id=execution:1#Execute Command#0 rec=execution:1#Execute Command#0 in={"command":"ls /srv","tool_call_id":"call_1"} err= t=2026-07-02T10:00:01.200Z/: "Execute Command {\"command\":\"ls /srv\",\"tool_call_id\":\"call_1\"}"
1 chat-7f3a tool_result toolExecuteCommand model= id=execution:1#Execute Command#0 rec=execution:1#Execute Command#0:result in= err=false t=2026-07-02T10:00:01.200Z/: "tmp.txt\nreport.md"
1 chat-7f3a tool_use toolExecuteCommand model= id=execution:1#Execute Command#1 rec=execution:1#Execute Command#1 in={"command":"rm /srv/tmp.txt","tool_call_id":"call_2"} err= t=2026-07-02T10:00:02.000Z/: "Execute Command {\"command\":\"rm /srv/tmp.txt\",\"tool_call_id\":\"call_2\"}"
1 chat-7f3a tool_result toolExecuteCommand model= id=execution:1#Execute Command#1 rec=execution:1#Execute Command#1:result in= err=true t=2026-07-02T10:00:02.000Z/: "error: Command failed: permission denied"
1 chat-7f3a system  model= id= rec=execution:1#OpenAI Chat Model#1 in= err= t=2026-07-02T10:00:03.000Z/: "model call: OpenAI Chat Model (lmChatOpenAi): success"
2 execution:2 system  model= id= rec=execution:2 in= err= t=2026-07-03T10:00:00.000Z/: "execution 2 of workflow Nightly ping (wf2) (trigger): error, stopped 2026-07-03T10:00:00.100Z, deleted 2026-07-04T00:00:00.000Z (soft-deleted: kept until pruned)"
2 execution:2 system  model= id= rec=execution:2#Schedule Trigger#0#node in= err= t=2026-07-03T10:00:00.000Z/: "node Schedule Trigger (scheduleTrigger): success"
2 execution:2 system  model= id= rec=execution:2#HTTP Request#0#node in= err= t=2026-07-03T10:00:00.050Z/: "node HTTP Request (httpRequest): error: connect ECONNREFUSED 127.0.0.1:9 Authorization: Bearer [redacted]"
3 execution:3 system  model= id= rec=execution:3 in= err= t=2026-07-03T11:00:00.000Z/: "execution 3 of workflow Nightly ping (wf2) (retry): error, a retry of execution 2"
4 execution:4 system  model= id= rec=execution:4 in= err= t=2026-07-03T12:00:00.000Z/: "execution 4 of workflow wf-gone (manual): new, no execution_data row (its data is gone)"
1 hub-1 system  model=gpt-4.1 id= rec=chat_hub_sessions:hub-1 in= err= t=2026-07-05T08:00:00.000Z/: "chat: Trip planning (provider=openai, model=gpt-4.1)"
1 hub-1 user  model= id= rec=h1 in= err= t=2026-07-05T08:00:01.000Z/: "plan a day in Porto"
1 hub-1 system  model= id= rec=h1#attachment0 in= err= t=2026-07-05T08:00:01.000Z/: "attachment: map.png (image/png, 12 kB, content not read)"
2 hub-1 assistant  model=gpt-4.1 id= rec=h2 in= err= t=2026-07-05T08:00:05.000Z/: "Start at the Ribeira."
3 hub-1 user  model= id= rec=h3 in= err= t=2026-07-05T08:01:00.000Z/: "plan a day in Porto, no walking"
3 hub-1 system  model= id= rec=h3#revision in= err= t=2026-07-05T08:01:00.000Z/: "message h3 is an edit of message h1 (both kept)"
4 hub-1 system  model=gpt-4.1 id= rec=h4#status in= err= t=2026-07-05T08:01:02.000Z/: "message h4 status: error"
5 hub-1 assistant  model=gpt-4.1 id= rec=h5 in= err= t=2026-07-05T08:01:09.000Z/: "Take the tram."
5 hub-1 system  model=gpt-4.1 id= rec=h5#retry in= err= t=2026-07-05T08:01:09.000Z/: "message h5 is a retry of message h4 (both kept)"
7 hub-gone user  model= id= rec=h7 in= err= t=2026-07-05T09:00:00.000Z/: "a message of a deleted chat"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprint(s.Skips) != "[{6 no_evidence:empty_message}]" {
		t.Fatalf("skips: %v", s.Skips)
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 3: execution_data of execution 3 not read: flatted reference 99 out of range\nline 7: orphan_record: message of chat session hub-gone whose chat_hub_sessions row is gone (deleted chat): its rows are kept" {
		t.Fatalf("problems:\n%s", p)
	}
	out := string(parsertest.Render(s))
	for _, secret := range []string{"SECRETCIPHER", "abcdefghijklmnopqrs", "iVBORw0KGgo", "gpt-4o-mini"} {
		if strings.Contains(out, secret) {
			t.Fatalf("%q reached the output", secret)
		}
	}
}

// TestDatabaseEmpty: a store with no rows gives nothing.
func TestDatabaseEmpty(t *testing.T) {
	s := runDB(t, "empty.sql", "empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestDatabaseOther: a SQLite file that is not n8n's is one problem.
func TestDatabaseOther(t *testing.T) {
	s := runDB(t, "other.sql", "other")
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not an n8n database: none of the tables chat_hub_messages, chat_hub_sessions, execution_data, execution_entity, workflow_entity" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestGatewayLog: calls with their full arguments (a secret in them
// redacted), results paired by tool in order, an error result, a message
// holding braces of its own, an unanswered call, a line that is no entry.
func TestGatewayLog(t *testing.T) {
	s := runLog(t, "gateway.log", "gateway")
	want := `1  system  model= id= rec= in= err= t=2026-07-06T08:00:00.000Z/: "computer-use gateway connected to https://n8n.example.com"
3  tool_use shell_execute model= id=gateway:3 rec=gateway:3 in={"command":"ls -la {x}"} err= t=2026-07-06T08:00:01.000Z/: "ls -la {x}"
4  tool_result shell_execute model= id=gateway:3 rec=gateway:4 in= err=false t=2026-07-06T08:00:01.250Z/: "shell_execute (250 ms)"
5  tool_use write_file model= id=gateway:5 rec=gateway:5 in={"path":"/home/ex/notes.txt","content":"API_KEY=[redacted]"} err= t=2026-07-06T08:00:02.000Z/: "/home/ex/notes.txt"
6  tool_result write_file model= id=gateway:5 rec=gateway:6 in= err=true t=2026-07-06T08:00:02.010Z/: "write_file (10 ms): EACCES: permission denied"
7  tool_use read_file model= id=gateway:7 rec=gateway:7 in={"path":"/etc/hosts"} err= t=2026-07-06T08:00:03.000Z/: "/etc/hosts"
9  system  model= id= rec= in= err= t=2026-07-06T08:05:00.000Z/: "computer-use gateway: Disconnected"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprint(s.Skips) != "[{2 no_evidence:gateway_status}]" {
		t.Fatalf("skips: %v", s.Skips)
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 8: not a gateway log line" {
		t.Fatalf("problems:\n%s", p)
	}
}

// TestGatewayLogEmpty: an empty log gives nothing.
func TestGatewayLogEmpty(t *testing.T) {
	s := runLog(t, "empty.log", "gateway_empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

func runAltered(t *testing.T, stmts ...string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLiteAltered(t, "testdata/database.sql", stmts...)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.n8n/database.sqlite", Rel: ".n8n/database.sqlite", Agent: agentName, Target: "database", MTime: mtime}, nil)
	return parsertest.Run(t, byID(t, "n8n/database"), in)
}

// TestDatabaseMissingTables: the tryout's store without chat_hub_messages
// and execution_data (24 rows became 4 with no problem): one problem per
// missing table, every execution row and the chat session still there,
// each execution saying its data was not read.
func TestDatabaseMissingTables(t *testing.T) {
	s := runAltered(t, `DROP TABLE chat_hub_messages`, `DROP TABLE execution_data`)
	wantP := "line 0: table chat_hub_messages missing: its rows cannot be read; the other tables are read\n" +
		"line 0: table execution_data missing: its rows cannot be read; the other tables are read"
	if got := strings.Join(s.Problems, "\n"); got != wantP {
		t.Fatalf("problems:\n%s", got)
	}
	want := `1 execution:1 system  model= id= rec=execution:1 in= err= t=2026-07-02T09:59:59.900Z/: "execution 1 of workflow Chat agent (wf1) (webhook): success, stopped 2026-07-02T10:00:05.000Z, its execution_data not read (see the table's problem row)"
2 execution:2 system  model= id= rec=execution:2 in= err= t=2026-07-03T10:00:00.000Z/: "execution 2 of workflow Nightly ping (wf2) (trigger): error, stopped 2026-07-03T10:00:00.100Z, deleted 2026-07-04T00:00:00.000Z (soft-deleted: kept until pruned), its execution_data not read (see the table's problem row)"
3 execution:3 system  model= id= rec=execution:3 in= err= t=2026-07-03T11:00:00.000Z/: "execution 3 of workflow Nightly ping (wf2) (retry): error, a retry of execution 2, its execution_data not read (see the table's problem row)"
4 execution:4 system  model= id= rec=execution:4 in= err= t=2026-07-03T12:00:00.000Z/: "execution 4 of workflow wf-gone (manual): new, its execution_data not read (see the table's problem row)"
1 hub-1 system  model=gpt-4.1 id= rec=chat_hub_sessions:hub-1 in= err= t=2026-07-05T08:00:00.000Z/: "chat: Trip planning (provider=openai, model=gpt-4.1)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestDatabaseMissingColumn: chat_hub_messages without content is the one
// unknown-schema problem naming it; the executions' 14 rows and the
// session row are all as in the full store.
func TestDatabaseMissingColumn(t *testing.T) {
	full := runDB(t, "database.sql", "database")
	s := runAltered(t, `ALTER TABLE chat_hub_messages DROP COLUMN content`)
	wantP := "line 0: unknown schema: table chat_hub_messages lacks column(s) content: not read; the other tables are read\n" +
		"line 3: execution_data of execution 3 not read: flatted reference 99 out of range"
	if got := strings.Join(s.Problems, "\n"); got != wantP {
		t.Fatalf("problems:\n%s", got)
	}
	var others []timeline.Event
	for _, e := range full.Events {
		if strings.HasPrefix(e.RecordID, "execution:") || strings.HasPrefix(e.RecordID, "chat_hub_sessions:") {
			others = append(others, e)
		}
	}
	if got, want := rows(s), rows(&parsertest.Sink{Events: others}); got != want || len(s.Events) != 15 {
		t.Fatalf("%d rows:\n%s\nwant:\n%s", len(s.Events), got, want)
	}
}

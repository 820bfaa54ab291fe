package warp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const dbPath = "/home/ex/.local/state/warp-terminal/warp.sqlite"

func run(t *testing.T, local, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: dbPath, Rel: ".local/state/warp-terminal/warp.sqlite", Agent: Agent, Target: "db"}, nil)
	return parsertest.Golden(t, Parsers()[0], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s rec=%s id=%s err=%s sec=%t in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.RecordID, e.ToolUseID, e.IsError, e.Secondary, e.ToolInput, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestTypical: every message kind of a task, a subagent task, a cancelled
// call, an opaque server event (skipped), a message with no content (a
// problem), an unreadable task blob, the typed queries as secondary rows,
// the conversations' counters without the server token, and the terminal's
// commands (the agent's a row, the person's counted).
func TestTypical(t *testing.T) {
	s := run(t, parsertest.SQLite(t, "testdata/typical.sql"), "typical")
	want := `1 user  sid=conv-1 parent= rec=ex-1 id= err= sec=true in= t=2026-11-24T08:59:58.250Z/: "find the leaked key and delete it"
1 user  sid=conv-1 parent= rec=m1 id= err= sec=false in= t=2026-11-24T09:00:00.500Z/: "find the leaked key and delete it"
1 thinking  sid=conv-1 parent= rec=m2 id= err= sec=false in= t=2026-11-24T09:00:05.500Z/: "Search the repo first."
1 assistant  sid=conv-1 parent= rec=m3 id= err= sec=false in= t=2026-11-24T09:00:05.500Z/: "Searching for keys."
1 system  sid= parent= rec=command:1 id= err= sec=false in= t=2026-11-24T09:00:06.000Z/: "command run by the agent in the terminal: grep -rn AKIA . (exit 0) in /home/ex/proj"
1 tool_use run_shell_command sid=conv-1 parent= rec=m4 id=call-1 err= sec=false in={"command":"grep -rn AKIA ."} t=2026-11-24T09:00:06.500Z/: "grep -rn AKIA ."
1 tool_result run_shell_command sid=conv-1 parent= rec=m5 id=call-1 err=false sec=false in= t=2026-11-24T09:00:07.500Z/: "1: ./.env:3:AKIA_REDACTED"
1 tool_use read_files sid=conv-1 parent= rec=m6 id=call-2 err= sec=false in={"files":["/home/ex/proj/.env"]} t=2026-11-24T09:00:08.500Z/: "/home/ex/proj/.env"
1 tool_result cancel sid=conv-1 parent= rec=m7 id=call-2 err=true sec=false in= t=2026-11-24T09:00:09.500Z/: "cancelled: the call was not run"
1 tool_use subagent sid=conv-1 parent= rec=m8 id=call-3 err= sec=false in={"payload":"research key rotation","task_id":"task-sub"} t=2026-11-24T09:00:10.500Z/: "subagent task task-sub"
1 system  sid=conv-1 parent= rec=m10 id= err= sec=false in= t=2026-11-24T09:00:11.500Z/: "model used:\n1: claude-4-sonnet"
2 assistant  sid=conv-1/task-sub parent=conv-1 rec=c1 id= err= sec=false in= t=2026-11-24T09:00:20.500Z/: "Rotate the key in the console."
1 system  sid=conv-1 parent= rec=conv-1#conversation id= err= sec=false in= t=2026-11-24T09:05:00.000Z/: "conversation conv-1; server conversation token recorded (not shown); tokens Claude 4 Sonnet: warp 1200, own key 0; tool calls counted: read_files 1, run_command 1; reverted actions (kept in the tasks): call-9; summary: Deleting a leaked key"
1 system  sid=conv-1 parent= rec=task-root#task id= err= sec=false in= t=2026-11-24T09:05:00.000Z/: "task task-root (Root task): 12 messages"
2 system  sid=conv-1/task-sub parent=conv-1 rec=task-sub#task id= err= sec=false in= t=2026-11-24T09:05:01.000Z/: "task task-sub (Research), a subagent of task task-root: 1 messages"
3 system  sid=conv-child parent=conv-1 rec=conv-child#conversation id= err= sec=false in= t=2026-11-24T09:06:00.000Z/: "conversation conv-child; agent name Researcher"
2 system  sid=conv-2 parent= rec=conv-2#conversation id= err= sec=false in= t=2026-11-24T10:00:00.000Z/: "conversation conv-2"
3 user  sid=conv-2 parent= rec=ex-3 id= err= sec=true in= t=2026-11-24T10:00:00.000Z/: "a query whose task is gone"
1 system  sid=conv-1 parent= rec=m12 id= err= sec=false in= t=/none: "conversation summarized: User wants the key gone."
`
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 2: agent_conversations conv-2: conversation_data is not valid JSON: invalid character 'o' in literal null (expecting 'u')|line 1: skipped_record: message m11 has no content of a kind task.proto names|line 3: agent_tasks task-bad: the task is not a readable protobuf message|line 4: ai_queries ex-4: input is not a JSON array: invalid character 'b' looking for beginning of object key string"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
	wantSkips := map[string]int{
		"server event: an opaque payload the client only round-trips":    1,
		"exchange with no typed query (a tool step or an action result)": 1,
		"a terminal command the person ran, not the agent":               1,
	}
	if got := s.SkipCounts(); fmt.Sprint(got) != fmt.Sprint(wantSkips) {
		t.Errorf("skips %v, want %v", got, wantSkips)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text+e.ToolInput, "tok-SECRET") {
			t.Errorf("the server conversation token is in a row: %q", e.Text)
		}
	}
}

// TestEmpty: a store with the tables and no rows gives nothing.
func TestEmpty(t *testing.T) {
	s := run(t, parsertest.SQLite(t, "testdata/empty.sql"), "empty")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

// TestMalformed: a file that is not a database, and a database of another
// layout, are one problem each and no rows.
func TestMalformed(t *testing.T) {
	for _, c := range []struct{ local, golden, want string }{
		{"testdata/malformed.sqlite", "malformed", "line 0: not a readable SQLite database: read the schema: file is not a database (26)"},
		{parsertest.SQLite(t, "testdata/other.sql"), "other", "line 0: not a Warp database: none of the tables agent_conversations, agent_tasks, ai_queries, commands"},
	} {
		s := run(t, c.local, c.golden)
		if got := strings.Join(s.Problems, "|"); len(s.Events) != 0 || got != c.want {
			t.Errorf("%s: rows %d, problems %q, want %q", c.golden, len(s.Events), got, c.want)
		}
	}
}

// TestSchema (issue 25), on copies of the typical store: without
// agent_tasks it is one problem naming it and every row of the other
// tables is there; an ai_queries without input names table and column
// and every other row is there. A table's own rows are those of a copy
// holding that table alone (each table's rows stand by themselves).
func TestSchema(t *testing.T) {
	tables := []string{"agent_conversations", "agent_tasks", "ai_queries", "commands"}
	altered := func(stmts ...string) *parsertest.Sink {
		in := parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/typical.sql", stmts...), parser.File{Path: dbPath, Rel: ".local/state/warp-terminal/warp.sqlite", Agent: Agent, Target: "db"}, nil)
		return parsertest.Run(t, Parsers()[0], in)
	}
	full := altered()
	for _, c := range []struct{ stmt, problem, table string }{
		{`DROP TABLE agent_tasks`, "line 0: table agent_tasks missing: its rows cannot be read; the other tables are read", "agent_tasks"},
		{`ALTER TABLE ai_queries DROP COLUMN input`, "line 0: unknown schema: table ai_queries lacks column(s) input: not read; the other tables are read", "ai_queries"},
	} {
		var drop []string
		for _, o := range tables {
			if o != c.table {
				drop = append(drop, "DROP TABLE "+o)
			}
		}
		only := altered(drop...)
		own := map[string]int{}
		for _, l := range strings.SplitAfter(rows(only), "\n") {
			own[l]++
		}
		var want strings.Builder
		n := 0
		for _, l := range strings.SplitAfter(rows(full), "\n") {
			if l != "" && own[l] > 0 {
				own[l]--
				n++
				continue
			}
			want.WriteString(l)
		}
		if n == 0 || n != len(only.Events) {
			t.Fatalf("%s: %d of its %d own rows in the full store", c.table, n, len(only.Events))
		}
		wantRows := want.String()
		probs := []string{c.problem}
		ownProbs := map[string]bool{}
		for _, p := range only.Problems {
			ownProbs[p] = true
		}
		for _, p := range full.Problems {
			if !ownProbs[p] {
				probs = append(probs, p)
			}
		}
		s := altered(c.stmt)
		if got, want := strings.Join(s.Problems, "|"), strings.Join(probs, "|"); got != want {
			t.Errorf("%s: problems\n%s\nwant\n%s", c.stmt, got, want)
		}
		if got := rows(s); got != wantRows {
			t.Errorf("%s: rows:\n%s\nwant:\n%s", c.stmt, got, wantRows)
		}
	}
}

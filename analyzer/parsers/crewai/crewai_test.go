package crewai

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 7, 12, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, sqlFile, base, golden string) *parsertest.Sink {
	t.Helper()
	db := parsertest.SQLite(t, "testdata/"+sqlFile)
	in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.local/share/research_crew/" + base, Rel: ".local/share/research_crew/" + base, Agent: agentName, Target: "task-outputs", MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s rec=%s t=%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.RecordID, e.TimeString(), e.Text)
	}
	return b.String()
}

// TestTaskOutputs: the kickoff's inputs (a key redacted) once, each task
// with its agent, the prompts CrewAI built as system rows (no user row:
// nobody typed them), the agent's messages and final output, a replayed
// task marked, an unreadable output reported.
func TestTaskOutputs(t *testing.T) {
	s := run(t, "crewai/task-outputs", "task_outputs.sql", "latest_kickoff_task_outputs.db", "task_outputs")
	want := `1 kickoff:research_crew system rec=kickoff-inputs t=2026-07-10T08:00:05.000Z: "kickoff inputs: {\"topic\":\"AI agents\",\"api_key\":\"[redacted]\"}"
1 kickoff:research_crew system rec=task:7d1e0000-0000-4000-8000-000000000001 t=2026-07-10T08:00:05.000Z: "task 0 (Senior Researcher): Research the latest AI agent frameworks"
1 kickoff:research_crew system rec=task:7d1e0000-0000-4000-8000-000000000001#message0 t=2026-07-10T08:00:05.000Z: "prompt (system) to Senior Researcher: You are Senior Researcher."
1 kickoff:research_crew system rec=task:7d1e0000-0000-4000-8000-000000000001#message1 t=2026-07-10T08:00:05.000Z: "prompt (user) to Senior Researcher: Current Task: Research the latest AI agent frameworks"
1 kickoff:research_crew assistant rec=task:7d1e0000-0000-4000-8000-000000000001#message2 t=2026-07-10T08:00:05.000Z: "Senior Researcher: Thought: I will search.\nAction: search\nAction Input: {\"q\": \"agent frameworks\"}"
1 kickoff:research_crew tool_result rec=task:7d1e0000-0000-4000-8000-000000000001#message3 t=2026-07-10T08:00:05.000Z: "CrewAI, AutoGen, LangGraph"
1 kickoff:research_crew assistant rec=task:7d1e0000-0000-4000-8000-000000000001#output t=2026-07-10T08:00:05.000Z: "Senior Researcher (final output): - CrewAI\n- AutoGen\n- LangGraph"
2 kickoff:research_crew system rec=task:7d1e0000-0000-4000-8000-000000000002 t=2026-07-10T08:00:09.000Z: "task 1 (Reporting Analyst): Write a report on {topic} (replayed: crewai replay re-ran it from this task)"
2 kickoff:research_crew assistant rec=task:7d1e0000-0000-4000-8000-000000000002#output t=2026-07-10T08:00:09.000Z: "Reporting Analyst (final output): AI agents are everywhere."
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if p := strings.Join(s.Problems, "\n"); p != "line 3: output of task 7d1e0000-0000-4000-8000-000000000003 not read: unexpected end of JSON input" {
		t.Fatalf("problems:\n%s", p)
	}
	if strings.Contains(string(parsertest.Render(s)), "INPUTSECRET") {
		t.Fatal("a kickoff input's key reached the output")
	}
}

// TestFlowStates: each method's completion with the state (a token
// redacted) and a flow paused for feedback.
func TestFlowStates(t *testing.T) {
	s := run(t, "crewai/flow-states", "flow_states.sql", "flow_states.db", "flow_states")
	want := `1 f10w0000-0000-4000-8000-000000000001 system rec=flow_states:1 t=2026-07-11T09:00:00.123Z: "flow method generate_outline completed; state: {\"id\":\"f10w0000-0000-4000-8000-000000000001\",\"topic\":\"rivers\",\"outline\":[\"source\",\"mouth\"]}"
2 f10w0000-0000-4000-8000-000000000001 system rec=flow_states:2 t=2026-07-11T09:00:30.000Z: "flow method write_draft completed; state: {\"id\":\"f10w0000-0000-4000-8000-000000000001\",\"topic\":\"rivers\",\"draft\":\"Rivers flow.\",\"token\":\"[redacted]\"}"
1 f10w0000-0000-4000-8000-000000000001 system rec=pending_feedback:1 t=2026-07-11T09:00:31.000Z: "flow paused waiting for human feedback: {\"flow_id\":\"f10w0000-0000-4000-8000-000000000001\",\"method_name\":\"review\",\"message\":\"Approve the draft?\"}"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
}

// TestOther: a SQLite file that is neither store is one problem each.
func TestOther(t *testing.T) {
	s := run(t, "crewai/task-outputs", "other.sql", "latest_kickoff_task_outputs.db", "other_task_outputs")
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not a CrewAI task outputs database: none of the tables latest_kickoff_task_outputs" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
	s = run(t, "crewai/flow-states", "other.sql", "flow_states.db", "other_flow_states")
	if len(s.Events) != 0 || strings.Join(s.Problems, "\n") != "line 0: not a CrewAI flow states database: none of the tables flow_states, pending_feedback" {
		t.Fatalf("events %d problems %v", len(s.Events), s.Problems)
	}
}

// TestStoresSchema (issue 25), on copies of the test stores: a
// flow_states.db without flow_states is one problem naming it and its
// pending_feedback row is still there; one without pending_feedback (the
// releases before human-in-the-loop flows) is no problem and every
// flow_states row is there; a pending_feedback without context_json and a
// task outputs table without output name table and column.
func TestStoresSchema(t *testing.T) {
	altered := func(id, sqlFile, base string, stmt string) *parsertest.Sink {
		db := parsertest.SQLiteAltered(t, "testdata/"+sqlFile, stmt)
		in := parsertest.Input(t, db, parser.File{Path: "/home/ex/.local/share/research_crew/" + base, Rel: ".local/share/research_crew/" + base, Agent: agentName, Target: "task-outputs", MTime: mtime}, nil)
		return parsertest.Run(t, byID(t, id), in)
	}
	full := run(t, "crewai/flow-states", "flow_states.sql", "flow_states.db", "flow_states")
	keep := func(prefix string) string {
		var k parsertest.Sink
		for _, e := range full.Events {
			if strings.HasPrefix(e.RecordID, prefix) {
				k.Events = append(k.Events, e)
			}
		}
		return rows(&k)
	}
	for _, c := range []struct{ stmt, problem, kept string }{
		{`DROP TABLE flow_states`, "line 0: table flow_states missing: its rows cannot be read; the other tables are read", "pending_feedback:"},
		{`DROP TABLE pending_feedback`, "", "flow_states:"},
		{`ALTER TABLE pending_feedback DROP COLUMN context_json`, "line 0: unknown schema: table pending_feedback lacks column(s) context_json: not read; the other tables are read", "flow_states:"},
	} {
		s := altered("crewai/flow-states", "flow_states.sql", "flow_states.db", c.stmt)
		if p := strings.Join(s.Problems, "\n"); p != c.problem {
			t.Errorf("%s: problems:\n%s", c.stmt, p)
		}
		if got, want := rows(s), keep(c.kept); got != want || got == "" {
			t.Errorf("%s: rows:\n%s\nwant:\n%s", c.stmt, got, want)
		}
	}
	s := altered("crewai/task-outputs", "task_outputs.sql", "latest_kickoff_task_outputs.db", `ALTER TABLE latest_kickoff_task_outputs DROP COLUMN output`)
	if p := strings.Join(s.Problems, "\n"); p != "line 0: unknown schema: table latest_kickoff_task_outputs lacks column(s) output: not read; the other tables are read" || len(s.Events) != 0 {
		t.Errorf("%d rows, problems:\n%s", len(s.Events), p)
	}
}

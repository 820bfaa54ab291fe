package zencoder

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const rel = ".zencoder/sessions/5e55a1b2-0000-4000-8000-000000000001.jsonl"

func run(t *testing.T, local, rel, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "sessions"}, nil)
	return parsertest.Golden(t, Parsers()[0], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestSession: the header's session and parent reach every row; only the
// user-input part is a user row (instructions and skill are system rows);
// reasoning, reply and two calls from one message; the denied permission;
// results with isError and the subagent's session id, the tagged part as a
// system row; a message without createdAt inherits the time of the record before it (the header's before any); an unknown
// role and a cut line are problems.
func TestSession(t *testing.T) {
	s := run(t, "testdata/home/"+rel, rel, "session")
	const sid, p = "5e55a1b2-0000-4000-8000-000000000001", "5e55a1b2-0000-4000-8000-000000000000"
	want := strings.NewReplacer("SID", sid, "PAR", p).Replace(`1 system  sid=SID parent=PAR proj= model=claude-sonnet-4 rec=SID#header id= in= err= t=2026-11-24T10:00:00.000Z/: "session SID; chat chat-1; model claude-sonnet-4; created for summarizedContinuation; parent PAR; updated 2026-11-24T10:05:00Z"
2 system  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec= id= in= err= t=2026-11-24T10:00:00.000Z/inherited: "You are Zencoder.\n\n# Environment\n\nWorking directory: /home/ex/proj\n\nOS: linux"
3 user  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=u1 id= in= err= t=2026-11-24T10:00:05.000Z/: "show me the .env"
3 system  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=u1#1 id= in= err= t=2026-11-24T10:00:05.000Z/: "instructions (injected, not typed): repo rules"
3 system  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=u1#2 id= in= err= t=2026-11-24T10:00:05.000Z/: "skill review (injected, not typed): Review carefully."
4 thinking  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=a1 id= in= err= t=2026-11-24T10:00:06.000Z/: "Read it first."
4 assistant  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=a1#1 id= in= err= t=2026-11-24T10:00:06.000Z/: "Reading."
4 tool_use Read sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=a1#2 id=tc1 in={"file_path":".env"} err= t=2026-11-24T10:00:06.000Z/: ".env"
4 tool_use mcp__zen_subagents__spawn_subagent sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=a1#3 id=tc2 in={"prompt":"audit the repo"} err= t=2026-11-24T10:00:06.000Z/: "audit the repo"
5 system  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec= id= in= err= t=2026-11-24T10:00:07.000Z/: "permission denied: {\"allowed\":false,\"toolCallId\":\"tc1\"}"
6 tool_result Read sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=t1 id=tc1 in= err=true t=2026-11-24T10:00:08.000Z/: "denied by the user"
6 tool_result mcp__zen_subagents__spawn_subagent sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=t1#1 id=tc2 in= err= t=2026-11-24T10:00:08.000Z/: "done <session-id>5e55a1b2-0000-4000-8000-00000000000a</session-id>"
6 system  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec=t1#2 id= in= err= t=2026-11-24T10:00:08.000Z/: "injected with the result of tc2 (not typed): todo-reminder: 3 todos open"
7 system  sid=SID parent=PAR proj=/home/ex/proj model=claude-sonnet-4 rec= id= in= err= t=2026-11-24T10:00:08.000Z/inherited: "turn finished: endTurn"
`)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 8: skipped_record: a message of role planner|line 9: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestEmpty: an empty session file gives nothing.
func TestEmpty(t *testing.T) {
	s := run(t, "testdata/empty.jsonl", ".zencoder/sessions/x.jsonl", "empty")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

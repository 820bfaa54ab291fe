package camelai

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s proj=%s id=%s rec=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ProjectPath, e.ToolUseID, e.RecordID, e.ToolInput, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

// TestChatHistory: JsonStorage's lines; a person's input is a user row, a
// role-playing agent's input a system row; a function call and its
// result by call id; the record with no time says so; a record with no
// message, an unknown backend role and a cut line are problems.
func TestChatHistory(t *testing.T) {
	in := parsertest.Input(t, "testdata/proj/chat_history.json", parser.File{Path: "/home/ex/proj/chat_history.json", Rel: "chat_history.json", Agent: agentName, Target: "project", MTime: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}, nil)
	s := parsertest.Golden(t, byID(t, "camel-ai/chat-history"), in, "testdata/chat_history.golden.jsonl")
	parsertest.Accounted(t, in, s)
	want := `1 system  sid=agent-1 proj=/home/ex/proj id= rec=7c1e0a52-0000-4000-8000-000000000001 in= t=2025-11-30T09:00:00.250Z/: "system message (Assistant): You are a helpful assistant."
2 user  sid=agent-1 proj=/home/ex/proj id= rec=7c1e0a52-0000-4000-8000-000000000002 in= t=2025-11-30T09:00:01.500Z/: "run the tests and tell me what fails"
3 tool_use execute_command sid=agent-1 proj=/home/ex/proj id=call_a rec=7c1e0a52-0000-4000-8000-000000000003 in={"command":"pytest -q"} t=2025-11-30T09:00:03.000Z/: "execute_command: pytest -q"
4 tool_result execute_command sid=agent-1 proj=/home/ex/proj id=call_a rec=7c1e0a52-0000-4000-8000-000000000004 in= t=2025-11-30T09:00:05.000Z/: "1 failed, 12 passed"
5 assistant  sid=agent-1 proj=/home/ex/proj id= rec=7c1e0a52-0000-4000-8000-000000000005 in= t=2025-11-30T09:00:06.000Z/: "test_login fails on a timeout."
6 system  sid=agent-2 proj=/home/ex/proj id= rec=7c1e0a52-0000-4000-8000-000000000006 in= t=2025-11-30T09:00:07.000Z/: "input from Python Programmer (role user; an agent's message, not known to be typed by a person): Instruction: write the fix.\nInput: None"
7 assistant  sid=agent-2 proj=/home/ex/proj id= rec=7c1e0a52-0000-4000-8000-000000000007 in= t=/none: "Here is the fix."
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if got := fmt.Sprintf("%v %q", s.Skips, s.Problems); got != `[] ["line 8: skipped_record: memory record without a message" "line 9: skipped_record: unknown role_at_backend \"critic\"" "line 10: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input"]` {
		t.Fatalf("%s", got)
	}
}

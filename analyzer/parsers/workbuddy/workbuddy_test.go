package workbuddy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const (
	sid  = "11111111-1111-4111-8111-111111111111"
	main = ".workbuddy/projects/proj/" + sid + ".jsonl"
)

func run(t *testing.T, p int, local, rel, target, golden string, mtime time.Time) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: target, MTime: mtime}, nil)
	return parsertest.Golden(t, Parsers()[p], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, e.Text)
	}
	return strings.ReplaceAll(b.String(), sid, "SID")
}

// TestSession: the typed text is the user row, the image part a system
// row; reasoning, reply, two calls (string and object arguments) and their
// results (an object output, an incomplete one as an error); a record
// without a timestamp inherits the one before; an unknown type, an empty
// reply and a cut line are problems.
func TestSession(t *testing.T) {
	s := run(t, 0, "testdata/home/"+main, main, "sessions", "session", time.Time{})
	want := `1 user  sid=SID parent= proj=/home/ex/proj model= rec=u1 id= in= err= t=2026-05-14T08:59:46.168Z/: "why is the build red?"
1 system  sid=SID parent= proj=/home/ex/proj model= rec=u1#1 id= in= err= t=2026-05-14T08:59:46.168Z/: "a input_image part of the user message: {\"type\":\"input_image\",\"image\":\"data:image/png;base64,AAAA\"}"
2 thinking  sid=SID parent= proj=/home/ex/proj model= rec=r1 id= in= err= t=2026-05-14T08:59:46.900Z/: "Check the CI log first."
3 assistant  sid=SID parent= proj=/home/ex/proj model=gpt-5.5 rec=a1 id= in= err= t=2026-05-14T08:59:47.168Z/: "Looking at the log."
3 system  sid=SID parent= proj=/home/ex/proj model=gpt-5.5 rec=a1#1 id= in= err= t=2026-05-14T08:59:47.168Z/: "token usage: inputTokens 20, outputTokens 4"
4 tool_use Bash sid=SID parent= proj=/home/ex/proj model=gpt-5.5 rec=fc1 id=call_1 in={"command":"cat ci.log"} err= t=2026-05-14T08:59:48.168Z/: "cat ci.log"
5 tool_result Bash sid=SID parent= proj=/home/ex/proj model= rec=fr1 id=call_1 in= err=false t=2026-05-14T08:59:49.168Z/: "FAIL: TestX"
6 tool_use Task sid=SID parent= proj=/home/ex/proj model= rec=fc2 id=call_2 in={"description":"fix TestX","prompt":"fix it"} err= t=2026-05-14T08:59:50.168Z/: "fix it"
7 tool_result Task sid=SID parent= proj=/home/ex/proj model= rec=fr2 id=call_2 in= err=true t=2026-05-14T08:59:50.168Z/inherited: "interrupted"
`
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 8: skipped_record: an item \"hosted_tool_call\" (not a message, reasoning or function call)|line 9: skipped_record: a message of role assistant with no text|line 10: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestSubagent: a subagent's rows are their own session under the parent
// folder's session, whatever sessionId its records carry; the string
// content is the typed prompt the parent gave it.
func TestSubagent(t *testing.T) {
	rel := ".workbuddy/projects/proj/" + sid + "/subagents/agent-1.jsonl"
	s := run(t, 0, "testdata/home/"+rel, rel, "sessions", "subagent", time.Time{})
	want := `1 user  sid=SID/agent-1 parent=SID proj=/home/ex/proj model= rec=su1 id= in= err= t=2026-05-14T08:59:50.500Z/: "fix it"
2 assistant  sid=SID/agent-1 parent=SID proj=/home/ex/proj model= rec=sa1 id= in= err= t=2026-05-14T08:59:50.900Z/: "Fixed."
`
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Errorf("rows:\n%s\nwant:\n%s\nproblems %v", got, want, s.Problems)
	}
}

// TestToolResult: a saved tool output is one tool_result row of the
// folder's session at the file's mtime.
func TestToolResult(t *testing.T) {
	rel := ".workbuddy/projects/proj/" + sid + "/tool-results/tool_123.txt"
	s := run(t, 1, "testdata/home/"+rel, rel, "tool-results", "tool_result", time.Date(2026, 5, 14, 9, 0, 0, 0, time.UTC))
	want := `1 tool_result  sid=SID parent= proj= model= rec=tool-results/tool_123.txt id= in= err= t=2026-05-14T09:00:00.000Z/file-mtime: "tool output saved aside as tool_123.txt:\nFAIL: TestX\n--- long output saved aside ---\n"
`
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Errorf("rows:\n%s\nwant:\n%s\nproblems %v", got, want, s.Problems)
	}
}

// TestEmpty: an empty transcript gives nothing.
func TestEmpty(t *testing.T) {
	s := run(t, 0, "testdata/empty.jsonl", ".workbuddy/projects/proj/x.jsonl", "sessions", "empty", time.Time{})
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

// TestUsageText: every counter under its own name, nested ones dotted,
// rawUsage only when usage holds none; no counter, no row.
func TestUsageText(t *testing.T) {
	for _, c := range []struct{ usage, raw, want string }{
		{`{"prompt_tokens":30,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":10}}`, ``, "token usage: completion_tokens 5, prompt_tokens 30, prompt_tokens_details.cached_tokens 10"},
		{`{}`, `{"input_tokens":7,"model":"x"}`, "token usage: input_tokens 7"},
		{``, ``, ""},
		{`"n/a"`, ``, ""},
	} {
		if got := usageText(json.RawMessage(c.usage), json.RawMessage(c.raw)); got != c.want {
			t.Errorf("usageText(%s, %s) = %q, want %q", c.usage, c.raw, got, c.want)
		}
	}
}

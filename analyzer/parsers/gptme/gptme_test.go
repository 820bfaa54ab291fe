package gptme

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

func run(t *testing.T, local, rel, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "logs"}, nil)
	return parsertest.Golden(t, Parsers()[0], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s id=%s model=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ToolUseID, e.Model, e.ToolInput, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestConversation: hidden user-role context is a system row, a typed
// prompt a user row with its files; a shell block is a call and a python3
// block is prose; results pair by call_id, by metadata.tool and by order;
// times without a zone are local-as-utc, one with an offset is read as
// such, an unreadable one says none; an unknown role, a record without
// content and a cut line are problems.
func TestConversation(t *testing.T) {
	rel := ".local/share/gptme/logs/2026-11-24-fix-the-build/conversation.jsonl"
	s := run(t, "testdata/logs/2026-11-24-fix-the-build/conversation.jsonl", rel, "conversation")
	// "~" stands for a backtick, which a raw string cannot hold.
	want := strings.ReplaceAll(`6 assistant  sid=2026-11-24-fix-the-build id= model=anthropic/claude-sonnet-4 in= t=2026-11-24T09:00:06.000Z/: "Fixing it.\n~~~save /home/ex/proj/NOTE.md\nfixed the semicolon\n~~~\n@shell(call_7): {\"command\": \"make\"}"
6 tool_use save sid=2026-11-24-fix-the-build id= model=anthropic/claude-sonnet-4 in={"args":"/home/ex/proj/NOTE.md","content":"fixed the semicolon"} t=2026-11-24T09:00:06.000Z/: "/home/ex/proj/NOTE.md"
6 tool_use shell sid=2026-11-24-fix-the-build id=call_7 model=anthropic/claude-sonnet-4 in={"command":"make"} t=2026-11-24T09:00:06.000Z/: "make"
6 system  sid=2026-11-24-fix-the-build id= model=anthropic/claude-sonnet-4 in= t=2026-11-24T09:00:06.000Z/: "token usage: input 1200, output 60, cache read 900, cache creation 0, cost \"n/a\""
1 system  sid=2026-11-24-fix-the-build id= model= in= t=2026-11-24T10:00:00.000Z/local-as-utc: "You are gptme, a general-purpose AI assistant."
2 system  sid=2026-11-24-fix-the-build id= model= in= t=2026-11-24T10:00:00.500Z/local-as-utc: "hidden context in the user role (not typed): <workspace>/home/ex/proj</workspace>"
3 user  sid=2026-11-24-fix-the-build id= model= in= t=2026-11-24T10:00:01.250Z/local-as-utc: "fix the build and save a note\n[files: /home/ex/proj/build.log]"
4 assistant  sid=2026-11-24-fix-the-build id= model=anthropic/claude-sonnet-4 in= t=2026-11-24T10:00:03.000Z/local-as-utc: "Let me look.\n~~~shell\nmake 2>&1 | tail -5\n~~~\nAnd an example, not a call:\n~~~python3\nprint(1)\n~~~"
4 tool_use shell sid=2026-11-24-fix-the-build id= model=anthropic/claude-sonnet-4 in={"content":"make 2\u003e\u00261 | tail -5"} t=2026-11-24T10:00:03.000Z/local-as-utc: "make 2>&1 | tail -5"
4 system  sid=2026-11-24-fix-the-build id= model=anthropic/claude-sonnet-4 in= t=2026-11-24T10:00:03.000Z/local-as-utc: "token usage: input 900, output 40, cost $0.01"
5 tool_result shell sid=2026-11-24-fix-the-build id= model= in= t=2026-11-24T10:00:04.000Z/local-as-utc: "Ran command: ~make 2>&1 | tail -5~\nerror: missing semicolon"
7 tool_result save sid=2026-11-24-fix-the-build id= model= in= t=2026-11-24T10:00:07.000Z/local-as-utc: "Saved to /home/ex/proj/NOTE.md"
8 tool_result shell sid=2026-11-24-fix-the-build id=call_7 model= in= t=2026-11-24T10:00:08.000Z/local-as-utc: "Ran command: ~make~\nok"
9 system  sid=2026-11-24-fix-the-build id= model= in= t=2026-11-24T10:00:09.000Z/local-as-utc: "Conversation will be auto-named."
10 assistant  sid=2026-11-24-fix-the-build id= model= in= t=/none: "Done."
`, "~", "`")
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 11: skipped_record: a message of role tool|line 12: skipped_record: a record with no role or content|line 13: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestEmpty: an empty file gives nothing.
func TestEmpty(t *testing.T) {
	s := run(t, "testdata/empty.jsonl", ".local/share/gptme/logs/x/conversation.jsonl", "empty")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("rows %d, problems %v", len(s.Events), s.Problems)
	}
}

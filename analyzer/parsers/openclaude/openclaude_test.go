package openclaude

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

const (
	sid  = "5f0c2b1e-8d7a-4c3b-9e2f-1a0b9c8d7e6f"
	proj = ".openclaude/projects/-home-ex-proj-web/"
)

func run(t *testing.T, rel, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: "projects",
		MTime: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}, nil)
	s := parsertest.Golden(t, byID(t, "openclaude/transcript"), in, "testdata/"+golden+".golden.jsonl")
	parsertest.Accounted(t, in, s)
	return s
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s agent=%s sid=%s parent=%s id=%s err=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.Agent, e.SessionID, e.ParentSessionID, e.ToolUseID, e.IsError, e.Text)
	}
	return b.String()
}

// TestSession: an OpenClaude session file is read as Claude Code's, under
// agent openclaude: the prompt, the reply, the failing Bash call with its
// exit code, the Agent call and its result; the ai-title record (a type
// Claude Code's reader does not name) is a system row with its members.
func TestSession(t *testing.T) {
	s := run(t, proj+sid+".jsonl", "session")
	want := strings.ReplaceAll(`1 user  agent=openclaude sid=@ parent= id= err=: "run the tests with the local model"
2 system  agent=openclaude sid=@ parent= id= err=: "model: deepseek-chat"
2 assistant  agent=openclaude sid=@ parent= id= err=: "Running them."
2 tool_use Bash agent=openclaude sid=@ parent= id=call_t1 err=: "npm test"
3 tool_result Bash agent=openclaude sid=@ parent= id=call_t1 err=true: "1 failing\n[exit code 1]"
4 tool_use Agent agent=openclaude sid=@ parent= id=call_a1 err=: "find the failing test"
5 tool_result Agent agent=openclaude sid=@ parent= id=call_a1 err=false: "test/login.spec.ts fails"
6 system  agent=openclaude sid=@ parent= id= err=: "ai-title: aiTitle=Fix failing login test"
`, "@", sid)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems %q", s.Problems)
	}
}

// TestSubagent: <session>/subagents/agent-<id>.jsonl rows are the
// subagent's session, with the main session as parent; the task the
// parent model wrote is a system row, never a user row.
func TestSubagent(t *testing.T) {
	s := run(t, proj+sid+"/subagents/agent-a9f8e7d6c5b4a392.jsonl", "subagent")
	want := strings.ReplaceAll(`1 system  agent=openclaude sid=a9f8e7d6c5b4a392 parent=@ id= err=: "subagent a9f8e7d6c5b4a392 of @"
1 system  agent=openclaude sid=a9f8e7d6c5b4a392 parent=@ id= err=: "subagent task: Find the failing test"
2 system  agent=openclaude sid=a9f8e7d6c5b4a392 parent=@ id= err=: "model: deepseek-chat"
2 tool_use Grep agent=openclaude sid=a9f8e7d6c5b4a392 parent=@ id=call_s1 err=: "describe\\("
`, "@", sid)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
}

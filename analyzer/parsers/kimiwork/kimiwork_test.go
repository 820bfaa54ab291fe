package kimiwork

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

const sess = ".config/kimi-desktop/daimon-share/daimon/runtime/kimi-code/home/sessions/wd_shop_1a2b3c4d/"

// files is the fixture home, collected (the subagent check lists the
// agents/ folder beside the main wire).
func files() parsertest.Files {
	f := parsertest.Files{}
	for _, rel := range []string{"conv-7e6d5c4b/wire.jsonl", "conv-7e6d5c4b/agents/ag01/wire.jsonl"} {
		f["/home/ex/"+sess+rel] = "testdata/home/" + sess + rel
	}
	return f
}

func run(t *testing.T, rel, golden string) string {
	t.Helper()
	in := parsertest.Input(t, "testdata/home/"+sess+rel, parser.File{Path: "/home/ex/" + sess + rel, Rel: sess + rel, Agent: agentName, Target: "sessions",
		MTime: time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)}, files())
	s := parsertest.Golden(t, byID(t, "kimi-work/wire"), in, "testdata/"+golden+".golden.jsonl")
	parsertest.Accounted(t, in, s)
	if len(s.Problems) != 0 {
		t.Errorf("problems %q", s.Problems)
	}
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s id=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ToolUseID, e.Text)
	}
	return b.String()
}

// TestConversation: a Kimi Work conversation is Kimi CLI's wire under the
// conv-* folder: the typed prompt, the Agent call and result, the reply;
// the subagent event is accounted as held by the subagent's own wire
// (agents/ag01/wire.jsonl, Kimi Work's folder name for subagents).
func TestConversation(t *testing.T) {
	got := run(t, "conv-7e6d5c4b/wire.jsonl", "conversation")
	want := `2 user  sid=conv-7e6d5c4b parent= id=: "summarise the failing CI jobs"
3 tool_use Agent sid=conv-7e6d5c4b parent= id=tool_agent_w1: "Agent: read CI logs"
5 tool_result Agent sid=conv-7e6d5c4b parent= id=tool_agent_w1: "Two jobs fail on lint."
6 assistant  sid=conv-7e6d5c4b parent= id=: "Both failures are lint errors."
`
	if got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
}

// TestSubagentWire: agents/<agent>/wire.jsonl is the subagent's session
// (<conv>/<agent>) with the conversation as parent; its task is the parent
// model's, a system row.
func TestSubagentWire(t *testing.T) {
	got := run(t, "conv-7e6d5c4b/agents/ag01/wire.jsonl", "subagent")
	want := `2 system  sid=conv-7e6d5c4b/ag01 parent=conv-7e6d5c4b id=: "subagent task (written by the parent agent): Read the CI logs"
3 assistant  sid=conv-7e6d5c4b/ag01 parent=conv-7e6d5c4b id=: "Two jobs fail on lint."
`
	if got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
}

// TestCodeFormatConversation: Kimi Work's runtime also writes the Kimi Code
// journal (top-level turn.prompt, context.append_loop_event records, with
// "timestamp" seconds: the shape kenn-io/agentsview 538600744d1b's
// kimi_work_provider_test.go writes); read as kimiwire.ParseCode reads it.
func TestCodeFormatConversation(t *testing.T) {
	got := run(t, "conv-9a8b7c6d/wire.jsonl", "code_conversation")
	want := `2 user  sid=conv-9a8b7c6d parent= id=: "list the open pull requests"
3 tool_use Bash sid=conv-9a8b7c6d parent= id=call_w1: "gh pr list"
4 tool_result Bash sid=conv-9a8b7c6d parent= id=call_w1: "#12 fix lint"
5 assistant  sid=conv-9a8b7c6d parent= id=: "One open pull request: #12."
6 system  sid=conv-9a8b7c6d parent= id=: "token usage of a step: input 900 (cache read 0, cache creation 0), output 42"
`
	if got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
}

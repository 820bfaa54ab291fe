package vscopilot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const file = "20260611T145205_aaaa1111_VSGitHubCopilot_traces.jsonl"

// TestTraces: the agent span is a system row; the prompt is a user row of
// its request's id in each of the two chat spans that repeat it (the
// correlate stage keeps one: TestEngineRepeats); replies; a call named by
// the chat span and run by an execute_tool span is a tool_use row of the
// call's id in each, and its result; a call only an execute_tool span names
// still gets its tool_use; the upper-case conversation id is read lower
// case; a span without a conversation, a line without spans and a cut line
// are problems; an unknown span is a skip.
func TestTraces(t *testing.T) {
	rel := "AppData/Local/Temp/VSGitHubCopilotLogs/traces/" + file
	in := parsertest.Input(t, "testdata/"+file, parser.File{Path: "C:/Users/ex/" + rel, Rel: rel, Agent: Agent, Target: "traces"}, nil)
	s := parsertest.Golden(t, Parsers()[0], in, "testdata/traces.golden.jsonl")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s model=%s rec=%s id=%s in=%s t=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.TimeString(), e.Text)
	}
	const sid = "4a8f63f6-7626-4416-a874-fc7bd2c3f005"
	want := strings.ReplaceAll(`1 system  sid=SID model=gpt-5.5 rec=s0 id= in= t=2026-06-12T19:46:40.000Z: "agent invoked: invoke_agent Copilot mode=agent"
2 user  sid=SID model=gpt-5.5-2026 rec=req-1#prompt id= in= t=2026-06-12T19:46:41.000Z: "delete the bin folder"
2 assistant  sid=SID model=gpt-5.5-2026 rec=s1#0 id= in= t=2026-06-12T19:46:41.000Z: "Deleting bin."
2 tool_use run_command_in_terminal sid=SID model=gpt-5.5-2026 rec=call_1 id=call_1 in={"command":"rd /s /q bin"} t=2026-06-12T19:46:41.000Z: "rd /s /q bin"
2 tool_use run_command_in_terminal sid=SID model= rec=call_1 id=call_1 in={"command":"rd /s /q bin"} t=2026-06-12T19:46:42.000Z: "rd /s /q bin"
2 tool_result run_command_in_terminal sid=SID model= rec=call_1#result id=call_1 in= t=2026-06-12T19:46:42.000Z: "exit code 0"
3 user  sid=SID model=gpt-5.5 rec=req-1#prompt id= in= t=2026-06-12T19:46:43.000Z: "delete the bin folder"
3 assistant  sid=SID model=gpt-5.5 rec=s3#0 id= in= t=2026-06-12T19:46:43.000Z: "Done."
3 system  sid=SID model=gpt-5.5 rec=s3#usage id= in= t=2026-06-12T19:46:43.000Z: "token usage: input 1520, output 96"
4 tool_use get_file sid=SID model= rec=call_2 id=call_2 in={"filePath":"C:\\src\\app.config"} t=2026-06-12T19:46:44.000Z: "C:\\src\\app.config"
4 tool_result get_file sid=SID model= rec=call_2#result id=call_2 in= t=2026-06-12T19:46:44.000Z: "<configuration/>"
`, "SID", sid)
	if got := b.String(); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantP := `line 5: skipped_record: span "chat gpt-5.5" (s5) names no conversation|line 7: skipped_record: a trace line with no spans|line 8: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input`
	if got := strings.Join(s.Problems, "|"); got != wantP {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantP)
	}
	if sk := s.SkipCounts(); len(sk) != 1 || sk["no_evidence:span"] != 1 {
		t.Errorf("skips: %v", sk)
	}
}

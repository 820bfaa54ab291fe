package deepseektui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const sid = "0badf00d-0000-4000-8000-000000000001"
const dir = ".codewhale/sessions/"

func run(t *testing.T, id int, local, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: target}, nil)
	return parsertest.Golden(t, Parsers()[id], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestSession: metadata (parent, subagent depth, cost) as a system row and
// the session, parent, folder and inherited time of every message row; the
// typed prompt; thinking, reply and call from one message; the result in a
// user-role message is a tool_result, not a user row; the image a system
// row; an interrupted reply marked; an unknown role, an unknown block, the
// journal counted; the system prompt a system row.
func TestSession(t *testing.T) {
	rel := dir + sid + ".json"
	s := run(t, 0, "testdata/home/"+rel, rel, "sessions", "session")
	want := strings.NewReplacer("SID", sid, "PAR", "0badf00d-0000-4000-8000-000000000000").Replace(`0 system  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec=SID#metadata id= in= err= t=2026-11-24T10:00:00.000Z/: "session SID; title read the env; updated 2026-11-24T10:02:00Z; provider deepseek; model deepseek-chat; mode agent; messages 5; tokens 1234; cost {\"session_cost_usd\":0.01}; parent PAR; subagent depth 1"
0 system  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec=SID#system_prompt id= in= err= t=2026-11-24T10:00:00.000Z/inherited: "system prompt: You are CodeWhale."
1 user  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec= id= in= err= t=2026-11-24T10:00:00.000Z/inherited: "show me .env"
2 thinking  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec= id= in= err= t=2026-11-24T10:00:00.000Z/inherited: "Read it."
2 assistant  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec= id= in= err= t=2026-11-24T10:00:00.000Z/inherited: "Reading."
2 tool_use read_file sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec= id=call_1 in={"path":".env"} err= t=2026-11-24T10:00:00.000Z/inherited: ".env"
3 tool_result  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec= id=call_1 in= err=false t=2026-11-24T10:00:00.000Z/inherited: "API_KEY=redacted"
3 system  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec= id= in= err= t=2026-11-24T10:00:00.000Z/inherited: "an image in the user message: {\"url\":\"file:///tmp/a.png\"}"
4 assistant  sid=SID parent=PAR proj=/home/ex/proj model=deepseek-chat rec= id= in= err= t=2026-11-24T10:00:00.000Z/inherited: "interrupted before completion: It has one ke"
`)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantProblems := "line 5: skipped_record: a message of role tool|line 6: skipped_record: a redacted block in a assistant message|line 0: skipped_record: the session journal (15 bytes, not read)"
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

// TestCut: a session cut inside a message keeps the messages before it and
// names where it stopped; an empty file is one problem.
func TestCut(t *testing.T) {
	s := run(t, 0, "testdata/cut.json", dir+"cut.json", "sessions", "cut")
	if got := rows(s); got != "0 system  sid=cut parent= proj= model= rec=cut#metadata id= in= err= t=/none: \"session cut\"\n1 user  sid=cut parent= proj= model= rec= id= in= err= t=/none: \"hello\"\n" {
		t.Errorf("rows:\n%s", got)
	}
	if got := strings.Join(s.Problems, "|"); got != "line 2: saved session cut short at message 2: unexpected EOF" {
		t.Errorf("problems %q", got)
	}
	s = run(t, 0, "testdata/empty.json", dir+"x.json", "sessions", "empty")
	if got := strings.Join(s.Problems, "|"); len(s.Events) != 0 || got != "line 0: not a saved session: the file is not a JSON object" {
		t.Errorf("rows %d, problems %q", len(s.Events), got)
	}
}

// TestApprovals: asked and decided receipts as system rows joined to the
// call; a retry with its policy, a denial; an unknown phase and a cut line
// counted.
func TestApprovals(t *testing.T) {
	rel := dir + sid + "/approval_receipts.jsonl"
	s := run(t, 1, "testdata/home/"+rel, rel, "approvals", "approvals")
	want := strings.NewReplacer("SID", sid).Replace(`1 system read_file sid=SID parent= proj= model= rec=call_1#asked id=call_1 in= err= t=2026-11-24T10:00:05.000Z/: "approval asked for read_file (call call_1)"
2 system  sid=SID parent= proj= model= rec=call_1#decided id=call_1 in= err= t=2026-11-24T10:00:07.000Z/: "approval decided for call call_1: retry with policy {\"mode\":\"read_only\"}"
3 system  sid=SID parent= proj= model= rec=call_2#decided id=call_2 in= err= t=2026-11-24T10:00:09.000Z/: "approval decided for call call_2: denied"
`)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(s.Problems, "|"); got != "line 4: skipped_record: an approval receipt of phase expired|line 5: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input" {
		t.Errorf("problems %q", got)
	}
}

package opencode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestZCode: a ZCode store (OpenCode's tables with RFC 3339 text times,
// and model_usage): the title and the typed prompt; reasoning, reply and
// OpenCode-style tool parts (a result, an error); the older
// Anthropic-style blocks (thinking, tool_use, and the tool_result of a
// later user-role message, named by the call it answers, never a user
// row); an epoch-ms session; one row per model_usage record. Rows come
// sorted by time.
func TestZCode(t *testing.T) {
	in := dbInput(t, "testdata/zcode.sql", agentZCode, "/home/ex/.zcode/cli/db/db.sqlite")
	p := byID(t, "zcode/db")
	if !p.Match(&in.File) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, in, "testdata/zcode.golden.jsonl")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, e.Text)
	}
	want := `2 system  sid=ses_z2 proj=/home/ex/acme model= rec=ses_z2#title id= in= err= t=2026-11-24T10:00:00.000Z/: "session title: Integer times"
1 system  sid=ses_z1 proj=/home/ex/acme model= rec=ses_z1#title id= in= err= t=2026-11-24T10:00:01.000Z/: "session title: Inspect the login flow"
1 user  sid=ses_z1 proj=/home/ex/acme model= rec=prt_1 id= in= err= t=2026-11-24T10:00:01.000Z/: "Inspect the login flow."
9 user  sid=ses_z2 proj=/home/ex/acme model= rec=prt_9 id= in= err= t=2026-11-24T10:00:01.000Z/: "hello"
1 system  sid=ses_z1 proj=/home/ex/acme model=glm-4.6 rec=ses_z1#usage:1 id= in= err= t=2026-11-24T10:00:02.000Z/: "model usage: turn 1 via builtin:bigmodel-coding-plan, status done; tokens 1000 in, 200 out, 40 reasoning, 50 cache write, 25 cache read; 2 tool calls; 1000 ms"
2 system  sid=ses_z1 proj=/home/ex/acme model= rec= id= in= err= t=2026-11-24T10:00:02.000Z/: "model: glm-4.6"
2 thinking  sid=ses_z1 proj=/home/ex/acme model=glm-4.6 rec=prt_2 id= in= err= t=2026-11-24T10:00:02.000Z/: "Read the auth code first."
3 assistant  sid=ses_z1 proj=/home/ex/acme model=glm-4.6 rec=prt_3 id= in= err= t=2026-11-24T10:00:03.000Z/: "I will read auth.go."
4 tool_use read sid=ses_z1 proj=/home/ex/acme model=glm-4.6 rec=prt_4 id=call_1 in={"filePath":"auth.go"} err= t=2026-11-24T10:00:04.000Z/: "auth.go"
4 tool_result read sid=ses_z1 proj=/home/ex/acme model= rec=prt_4#result id=call_1 in= err=false t=2026-11-24T10:00:04.000Z/: "package auth"
5 tool_use bash sid=ses_z1 proj=/home/ex/acme model=glm-4.6 rec=prt_5 id=call_2 in={"command":"go test ./..."} err= t=2026-11-24T10:00:05.000Z/: "go test ./..."
5 tool_result bash sid=ses_z1 proj=/home/ex/acme model= rec=prt_5#result id=call_2 in= err=true t=2026-11-24T10:00:05.000Z/: "exit status 1"
6 thinking  sid=ses_z1 proj=/home/ex/acme model=glm-4.6 rec=prt_6 id= in= err= t=2026-11-24T10:00:06.000Z/: "An older build wrote thinking parts."
7 tool_use Read sid=ses_z1 proj=/home/ex/acme model=glm-4.6 rec=prt_7 id=call_3 in={"file_path":"login.go"} err= t=2026-11-24T10:00:06.000Z/: "login.go"
8 tool_result Read sid=ses_z1 proj=/home/ex/acme model= rec=prt_8 id=call_3 in= err=false t=2026-11-24T10:00:07.000Z/: "package login"
`
	if got := b.String(); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems: %v", s.Problems)
	}
}

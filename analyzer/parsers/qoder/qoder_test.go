package qoder

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

const sid = "3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a"

// TestSession: a Qoder CLI session file (Claude Code's format) under agent
// qoder: the prompt, thinking, the Read call and result, the denied Edit
// (an error result), the custom-title record as a system row; the same
// file under the IDE's SharedClientCache target reads the same.
func TestSession(t *testing.T) {
	rel := ".qoder/projects/-home-ex-proj-shop/" + sid + ".jsonl"
	want := strings.ReplaceAll(`1 user  agent=qoder sid=@ id= err=: "add a discount field to the order form"
2 system  agent=qoder sid=@ id= err=: "model: qoder-auto"
2 thinking  agent=qoder sid=@ id= err=: "Open the form first."
2 tool_use Read agent=qoder sid=@ id=toolu_q1 err=: "/home/ex/proj/shop/src/OrderForm.tsx"
3 tool_result Read agent=qoder sid=@ id=toolu_q1 err=false: "export function OrderForm() {}"
4 tool_use Edit agent=qoder sid=@ id=toolu_q2 err=: "/home/ex/proj/shop/src/OrderForm.tsx"
5 tool_result Edit agent=qoder sid=@ id=toolu_q2 err=true: "The user denied this edit."
6 system  agent=qoder sid=@ id= err=: "custom-title: customTitle=Order form discount"
`, "@", sid)
	for _, c := range []struct{ target, path, golden string }{
		{"projects", "/home/ex/" + rel, "testdata/session.golden.jsonl"},
		{"ide-projects", "/home/ex/.config/Qoder/SharedClientCache/cli/projects/-home-ex-proj-shop/" + sid + ".jsonl", "testdata/session_ide.golden.jsonl"},
	} {
		in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: c.path, Rel: rel, Agent: agentName, Target: c.target,
			MTime: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}, nil)
		p := byID(t, "qoder/transcript")
		if !p.Match(&in.File) {
			t.Fatalf("%s does not match %s", p.ID(), c.path)
		}
		s := parsertest.Golden(t, p, in, c.golden)
		parsertest.Accounted(t, in, s)
		var b strings.Builder
		for _, e := range s.Events {
			fmt.Fprintf(&b, "%d %s %s agent=%s sid=%s id=%s err=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.Agent, e.SessionID, e.ToolUseID, e.IsError, e.Text)
		}
		if got := b.String(); got != want {
			t.Errorf("%s rows:\n%s\nwant:\n%s", c.target, got, want)
		}
		if len(s.Problems) != 0 {
			t.Errorf("problems %q", s.Problems)
		}
	}
}

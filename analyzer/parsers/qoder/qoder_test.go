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

// TestMeta: a session's -session.json gives its title, working dir and
// fork parent; a subagent's meta.json its type, task and starting call,
// parent the session folder; an unknown member is named, a cut file and
// an empty one are accounted, not rows.
func TestMeta(t *testing.T) {
	mt := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	dir := ".qoder/projects/-home-ex-proj-shop/"
	for _, c := range []struct{ src, rel, golden, want, skip, problem string }{
		{"testdata/home/" + dir + sid + "-session.json", dir + sid + "-session.json", "meta_session",
			`1 system  sid=@ parent=0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f proj=/home/ex/proj/shop id= t=2026-11-30T12:00:00.000Z/file-mtime: "session metadata (` + sid + `-session.json): title \"Order form discount\", working dir \"/home/ex/proj/shop\", forked from \"0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f\""` + "\n", "", ""},
		{"testdata/home/" + dir + sid + "/subagents/agent-a1b2c3d4e5f6a7b8c.meta.json", dir + sid + "/subagents/agent-a1b2c3d4e5f6a7b8c.meta.json", "meta_subagent",
			`1 system  sid=a1b2c3d4e5f6a7b8c parent=@ proj= id=toolu_q0 t=2026-11-30T12:00:00.000Z/file-mtime: "subagent metadata (agent-a1b2c3d4e5f6a7b8c.meta.json): type \"Explore\", task \"find the order form\", started by tool call \"toolu_q0\""` + "\n", "", ""},
		{"testdata/odd/s2-session.json", dir + "s2-session.json", "meta_odd",
			`1 system  sid=s2 parent=p-1 proj= id= t=2026-11-30T12:00:00.000Z/file-mtime: "session metadata (s2-session.json): title \"kept\", parent session \"p-1\", other members: future_field"` + "\n", "", ""},
		{"testdata/odd/s3-session.json", dir + "s3-session.json", "meta_cut", "", "", "line 0: not valid JSON: unexpected end of JSON input"},
		{"testdata/odd/agent-e.meta.json", dir + sid + "/subagents/agent-e.meta.json", "meta_empty", "", "[{1 no_evidence:empty_meta}]", ""},
	} {
		in := parsertest.Input(t, c.src, parser.File{Path: "/home/ex/" + c.rel, Rel: c.rel, Agent: agentName, Target: "session-meta", MTime: mt}, nil)
		p := byID(t, "qoder/meta")
		if !p.Match(&in.File) {
			t.Fatalf("%s does not match %s", p.ID(), c.rel)
		}
		s := parsertest.Golden(t, p, in, "testdata/"+c.golden+".golden.jsonl")
		var b strings.Builder
		for _, e := range s.Events {
			fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s id=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.ToolUseID, e.TimeString(), e.ToRow().TimeBasis, e.Text)
		}
		if got, want := b.String(), strings.ReplaceAll(c.want, "@", sid); got != want {
			t.Errorf("%s rows:\n%s\nwant:\n%s", c.rel, got, want)
		}
		if c.skip != "" {
			if got := fmt.Sprint(s.Skips); got != c.skip {
				t.Errorf("%s skips %s, want %s", c.rel, got, c.skip)
			}
		}
		if got := strings.Join(s.Problems, "|"); got != c.problem {
			t.Errorf("%s problems %q, want %q", c.rel, got, c.problem)
		}
	}
}

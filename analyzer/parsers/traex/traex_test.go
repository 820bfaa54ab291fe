package traex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

const sid = "0199bbbb-0000-7000-8000-0000000000b1"

// TestParsers: only the rollout reader, under traex.
func TestParsers(t *testing.T) {
	var ids []string
	for _, p := range Parsers() {
		if p.Agent() != Agent {
			t.Errorf("%s: agent %s", p.ID(), p.Agent())
		}
		ids = append(ids, p.ID())
	}
	if got := strings.Join(ids, " "); got != "traex/rollout" {
		t.Errorf("parsers: %s", got)
	}
}

// TestMatch: a live and an archived rollout are TraeX's; Codex's are not.
func TestMatch(t *testing.T) {
	for _, c := range []struct {
		agent, path string
		want        bool
	}{
		{Agent, "/home/u/.trae/cli/sessions/2026/11/24/rollout-x.jsonl", true},
		{Agent, "/home/u/.trae/cli/archived_sessions/rollout-x.jsonl", true},
		{"codex-cli", "/home/u/.codex/sessions/2026/11/24/rollout-x.jsonl", false},
	} {
		f := &parser.File{Path: c.path, Agent: c.agent, Target: "sessions"}
		if got := byID(t, "traex/rollout").Match(f); got != c.want {
			t.Errorf("%s %s: %v", c.agent, c.path, got)
		}
	}
}

// TestRollout: Codex's reader under TraeX's name: every row is traex's
// session, the typed prompt once (its response_item copy a counted
// duplicate), the call with its arguments and failed result; the cut last
// line is a problem.
func TestRollout(t *testing.T) {
	rel := ".trae/cli/sessions/2026/11/24/rollout-2026-11-24T10-00-00-" + sid + ".jsonl"
	in := parsertest.Input(t, "testdata/rollout-2026-11-24T10-00-00-"+sid+".jsonl", parser.File{Path: "/home/examiner/" + rel, Rel: rel, Agent: Agent, Target: "sessions"}, nil)
	s := parsertest.Golden(t, byID(t, "traex/rollout"), in, "testdata/rollout.golden.jsonl")
	var b strings.Builder
	for _, e := range s.Events {
		if e.SessionID != sid || e.ProjectPath != "/home/examiner/site" {
			t.Errorf("row of another session or project: %+v", e)
		}
		fmt.Fprintf(&b, "%d %s %s id=%s in=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.ToolUseID, e.ToolInput, e.Text)
	}
	got := b.String()
	for _, w := range []string{
		`3 user  id= in=: "print the deploy key"`,
		`5 tool_use exec_command id=call_tx1 in={"cmd":"cat ~/.ssh/deploy","workdir":"/home/examiner/site"}: "cat ~/.ssh/deploy"`,
		`6 tool_result exec_command id=call_tx1 in=: "Process exited with code 1\nOutput:\nPermission denied\n"`,
		`7 assistant  id= in=: "I cannot read it."`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("no row %s in:\n%s", w, got)
		}
	}
	if strings.Count(got, " user ") != 1 {
		t.Errorf("user rows:\n%s", got)
	}
	if len(s.States) != 1 || s.States[0].Key.Agent != Agent {
		t.Errorf("states: %+v", s.States)
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 8: ") {
		t.Errorf("problems: %v", s.Problems)
	}
}

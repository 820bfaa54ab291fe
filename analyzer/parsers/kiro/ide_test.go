package kiro

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const ideRoot = home + "/.config/Kiro/User/globalStorage/kiro.kiroagent/"

func runIDE(t *testing.T, rel, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	p := byID(t, "kiro/ide")
	f := parser.File{Path: ideRoot + rel, Target: "ide-agent", Agent: Agent, MTime: mtime}
	if !p.Match(&f) {
		t.Fatalf("kiro/ide does not match %s", f.Path)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, "testdata/kiroagent/"+rel, f, related), golden)
}

// TestIDEChat: a .chat execution chat: the system prompt sent as the
// human turn is a system row, the typed prompt a user row without its
// <kiro-ide-message> wrapper, replies with the model, tool output, all at
// the chat's startTime (inherited), the end at endTime; a cut file is
// one problem.
func TestIDEChat(t *testing.T) {
	s := runIDE(t, "ab12cd/ef34.chat", "testdata/ide_chat.golden.jsonl", nil)
	sid := "ab12cd:ef34"
	if h := find(t, s, timeline.System, "Kiro IDE chat "+sid); h.Text != "Kiro IDE chat ab12cd:ef34; execution exec-1; action act-1; workflow act; workflow id wf-1; model claude-sonnet-4" || !h.Time.Equal(time.UnixMilli(1795700000000).UTC()) {
		t.Fatalf("chat row %+v", h)
	}
	find(t, s, timeline.System, "system prompt or rules sent as the human turn (not typed): # System Prompt")
	u := find(t, s, timeline.User, "input validation")
	if u.Text != "add input validation to the signup form" || u.TimeBasis != timeline.TimeInherited || u.SessionID != sid {
		t.Fatalf("prompt %+v", u)
	}
	for _, e := range s.Events {
		if e.TurnType == timeline.User && strings.Contains(e.Text, "System Prompt") {
			t.Fatal("the system prompt became a user row")
		}
	}
	if a := find(t, s, timeline.Assistant, "I'll add validation"); a.Model != "claude-sonnet-4" {
		t.Fatalf("reply %+v", a)
	}
	find(t, s, timeline.ToolResult, "File signup.ts updated.")
	if e := find(t, s, timeline.System, "ended (metadata endTime)"); !e.Time.Equal(time.UnixMilli(1795700060000).UTC()) {
		t.Fatalf("end %+v", e)
	}
	if len(s.Skips) != 1 || len(s.Problems) != 0 {
		t.Fatalf("skips %+v problems %q", s.Skips, s.Problems)
	}
	b := runIDE(t, "ab12cd/bad.chat", "testdata/ide_chat_bad.golden.jsonl", nil)
	if len(b.Events) != 0 || len(b.Problems) != 1 || !strings.HasPrefix(b.Problems[0], "line 1: Kiro IDE chat is not a JSON object") {
		t.Fatalf("bad chat %q", b.Problems)
	}
}

// TestIDESessions: the session list dates the session; the history gives
// the typed prompt, the reply from its prompt logs, the execution it ran,
// tool output; the execution log gives the agent's text and its actions
// with full input and output.
func TestIDESessions(t *testing.T) {
	ws := "workspace-sessions/L2hvbWUvYWxpY2UvYXBw/"
	l := runIDE(t, ws+"sessions.json", "testdata/ide_session_list.golden.jsonl", nil)
	if len(l.Events) != 1 || l.Events[0].Text != `Kiro IDE session s-1: "Signup validation" of /home/alice/app (sessions.json)` || !l.Events[0].Time.Equal(time.UnixMilli(1795700100000).UTC()) {
		t.Fatalf("session list %+v", l.Events)
	}
	s := runIDE(t, ws+"s-1.json", "testdata/ide_session.golden.jsonl", parsertest.Files{ideRoot + ws + "sessions.json": "testdata/kiroagent/" + ws + "sessions.json"})
	u := find(t, s, timeline.User, "now add a test")
	if u.SessionID != "s-1" || u.RecordID != "m-1" || u.ProjectPath != "/home/alice/app" || !u.Time.Equal(time.UnixMilli(1795700100000).UTC()) || u.TimeBasis != timeline.TimeInherited {
		t.Fatalf("prompt %+v", u)
	}
	find(t, s, timeline.Assistant, "Adding signup.test.ts.")
	find(t, s, timeline.System, "execution exec-2 (its actions are in the workspace's execution log, session exec:exec-2)")
	find(t, s, timeline.ToolResult, "ok")
	if len(s.Skips) != 1 {
		t.Fatalf("skips %+v", s.Skips)
	}
	x := runIDE(t, "0123456789abcdef0123456789abcdef/414d1636299d2b9e4ce7e17fb11f63e9/f00d", "testdata/ide_execution.golden.jsonl", nil)
	find(t, x, timeline.Assistant, "Creating the test file.")
	if c := find(t, x, timeline.ToolUse, "create"); c.ToolInput != `{"file":"signup.test.ts","modifiedContent":"test('x', () => {})\n"}` || c.SessionID != "exec:exec-2" || c.ToolUseID != "a-2" {
		t.Fatalf("create %+v", c)
	}
	if r := find(t, x, timeline.ToolResult, "replaced"); r.ToolName != "replace" || r.ToolUseID != "a-3" {
		t.Fatalf("replace result %+v", r)
	}
	if len(x.Skips) != 1 {
		t.Fatalf("skips %+v", x.Skips)
	}
	o := runIDE(t, "config.json", "testdata/ide_other.golden.jsonl", nil)
	if len(o.Events)+len(o.Problems) != 0 || len(o.Skips) != 1 {
		t.Fatalf("other file: %d rows %q", len(o.Events), o.Problems)
	}
}

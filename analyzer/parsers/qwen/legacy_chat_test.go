package qwen

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestLegacyChat reads a tmp/<hash>/chats/session-*.json file as Qwen Code
// 0.1.3 writes it (ChatRecordingService in the published cli.js): the
// typed prompt, the qwen message's thought, reply, tool call and result,
// the denied call's error and its cancelled status as a permission
// decision, and the info message as a system row, all in the file's
// session (a "qwen" message read as Gemini's "gemini" would be a system row).
func TestLegacyChat(t *testing.T) {
	const hash = "9f2d1c0b8a7e6d5c4b3a29181716151413121110f0e0d0c0b0a09080706050403"
	rel := ".qwen/tmp/" + hash + "/chats/session-2026-03-30T08-15-4c3b2a19.json"
	in := parsertest.Input(t, "testdata/legacy/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "legacy-chats",
		MTime: time.Date(2026, 3, 30, 9, 0, 0, 0, time.UTC)}, nil)
	p := byID(t, "qwen-code/legacy-chat")
	if !p.Match(&in.File) {
		t.Fatalf("%s does not match %s", p.ID(), rel)
	}
	s := parsertest.Golden(t, p, in, "testdata/legacy_chat.golden.jsonl")
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%s %s sid=%s id=%s err=%s t=%s: %q\n", e.TurnType, e.ToolName, e.SessionID, e.ToolUseID, e.IsError, e.TimeString(), e.Text)
	}
	want := strings.ReplaceAll(`user  sid=@ id= err= t=2026-03-30T08:15:05.000Z: "list the docker containers and stop the db one"
thinking  sid=@ id= err= t=2026-03-30T08:15:07.000Z: "Plan\n\nList first, then stop."
system  sid=@ id= err= t=2026-03-30T08:15:09.000Z: "model: qwen3-coder-plus"
assistant  sid=@ id= err= t=2026-03-30T08:15:09.000Z: "Listing the containers."
tool_use run_shell_command sid=@ id=call_ls err= t=2026-03-30T08:15:09.000Z: "docker ps"
tool_result run_shell_command sid=@ id=call_ls err=false t=2026-03-30T08:15:11.000Z: "abc123 postgres db"
tool_use run_shell_command sid=@ id=call_stop err= t=2026-03-30T08:15:30.000Z: "docker stop abc123"
tool_result run_shell_command sid=@ id=call_stop err=true t=2026-03-30T08:15:40.000Z: "Tool execution denied by user."
system run_shell_command sid=@ id=call_stop err= t=2026-03-30T08:15:40.000Z: "permission decision: cancelled"
system  sid=@ id= err= t=2026-03-30T08:16:40.000Z: "info: Request cancelled."
`, "@", "4c3b2a19-0f1e-4d2c-8b3a-596877665544")
	if got := b.String(); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems %q", s.Problems)
	}
}

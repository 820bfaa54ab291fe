package codebuff

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC)

const dir = ".config/manicode/projects/web/chats/"

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, chat, golden string) *parsertest.Sink {
	t.Helper()
	rel := dir + chat + "/chat-messages.json"
	rs := dir + chat + "/run-state.json"
	related := parsertest.Files{}
	if _, err := os.Stat("testdata/home/" + rs); err == nil {
		related["/home/ex/"+rs] = "testdata/home/" + rs
	}
	in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: "chats", MTime: mtime}, related)
	return parsertest.Golden(t, byID(t, "codebuff/chat"), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s id=%s rec=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.ToolUseID, e.RecordID, e.ToolInput, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

// TestChat: every message variant and block type; a spawned agent's
// calls are rows of its own session under the chat; an unknown block,
// an unknown variant and an element that is no object are problems.
func TestChat(t *testing.T) {
	s := run(t, "2026-11-30T09-00-00.000Z", "chat")
	want := strings.ReplaceAll(`0 system  sid=@ parent= proj=/home/ex/proj/web model=base2 id= rec= in= t=2026-11-30T09:00:00.000Z/: "chat started (codebuff, agent type base2, from run-state.json); credits used 12; context tokens 48213; skills offered: deploy, lint"
1 user  sid=@ parent= proj=/home/ex/proj/web model= id= rec=u1 in= t=2026-11-30T09:00:05.000Z/: "why does the deploy script fail?"
2 thinking  sid=@ parent= proj=/home/ex/proj/web model= id= rec=a1 in= t=2026-11-30T09:00:20.000Z/: "Read the script first."
2 tool_use read_files sid=@ parent= proj=/home/ex/proj/web model= id=tc1 rec=a1#1 in={"paths":["deploy.sh"]} t=2026-11-30T09:00:20.000Z/: "read_files {\"paths\":[\"deploy.sh\"]}"
2 tool_result read_files sid=@ parent= proj=/home/ex/proj/web model= id=tc1 rec=a1#2 in= t=2026-11-30T09:00:20.000Z/: "[{\"type\":\"json\",\"value\":\"#!/bin/sh\\nscp build/ prod:\"}]"
2 tool_use run_terminal_command sid=@ parent= proj=/home/ex/proj/web model= id=tc2 rec=a1#3 in={"command":"sh deploy.sh"} t=2026-11-30T09:00:20.000Z/: "run_terminal_command: sh deploy.sh"
2 tool_use agent:file-picker sid=@ parent= proj=/home/ex/proj/web model= id=ag1 rec=a1#4 in={"agentName":"Fletcher","agentType":"file-picker","params":{"depth":1},"prompt":"find the ssh config","status":"complete"} t=2026-11-30T09:00:20.000Z/: "spawned agent file-picker (complete): find the ssh config"
2 tool_use find_files sid=ag1 parent=@ proj=/home/ex/proj/web model= id=tc3 rec=a1#5 in={"pattern":"ssh"} t=2026-11-30T09:00:20.000Z/: "find_files: ssh"
2 tool_result find_files sid=ag1 parent=@ proj=/home/ex/proj/web model= id=tc3 rec=a1#6 in= t=2026-11-30T09:00:20.000Z/: "~/.ssh/config"
2 tool_result agent:file-picker sid=@ parent= proj=/home/ex/proj/web model= id=ag1 rec=a1#7 in= t=2026-11-30T09:00:20.000Z/: "~/.ssh/config"
2 assistant  sid=@ parent= proj=/home/ex/proj/web model= id= rec=a1#8 in= t=2026-11-30T09:00:20.000Z/: "The script has no host key; see ~/.ssh/config."
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= rec=a1#9 in= t=2026-11-30T09:00:20.000Z/: "plan: 1. add host key"
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= rec=a1#10 in= t=2026-11-30T09:00:20.000Z/: "agent asked the user: Add the host key now?"
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= rec=a1#11 in= t=2026-11-30T09:00:20.000Z/: "mode: max"
3 system  sid=@ parent= proj=/home/ex/proj/web model= id= rec=u2 in= t=2026-11-30T09:01:00.000Z/: "image attached: error.png"
4 system  sid=@ parent= proj=/home/ex/proj/web model= id= rec=e1 in= t=2026-11-30T09:02:00.000Z/: "error: rate limited"
`, "@", "2026-11-30T09-00-00.000Z")
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprintf("%v %q", s.Skips, s.Problems) != `[{5 no_evidence:empty_message}] ["line 2: skipped_record: unknown block type \"hologram\"" "line 6: skipped_record: unknown chat message variant \"system\"" "line 7: not a chat message: expected an object, found a string"]` {
		t.Fatalf("skips %v problems %q", s.Skips, s.Problems)
	}
}

// TestChatFreebuffLocalTimes: a Freebuff chat (agent type base2-free)
// whose message times are local clock times with no date: the rows carry
// the folder's start time as inherited and one row says so; a cut-off
// element is a problem.
func TestChatFreebuffLocalTimes(t *testing.T) {
	s := run(t, "2026-11-30T21-00-00.000Z", "chat_freebuff")
	want := strings.ReplaceAll(`0 system  sid=@ parent= proj=/home/ex/proj/web model=base2-free id= rec= in= t=2026-11-30T21:00:00.000Z/: "chat started (freebuff, agent type base2-free, from run-state.json)"
0 system  sid=@ parent= proj=/home/ex/proj/web model= id= rec= in= t=2026-11-30T21:00:00.000Z/inherited: "2 message time(s) are local clock times with no date or zone (first 09:01 PM, last 09:02 PM); those rows carry the chat folder's start time"
1 user  sid=@ parent= proj=/home/ex/proj/web model= id= rec=u1 in= t=2026-11-30T21:00:00.000Z/inherited: "list the files"
2 assistant  sid=@ parent= proj=/home/ex/proj/web model= id= rec=a1 in= t=2026-11-30T21:00:00.000Z/inherited: "Done."
`, "@", "2026-11-30T21-00-00.000Z")
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprintf("%v %q", s.Skips, s.Problems) != `[] ["line 3: chat message not read (the rest of the file is not read): invalid character '\\n' in string (expecting non-control character)"]` {
		t.Fatalf("skips %v problems %q", s.Skips, s.Problems)
	}
}

func TestChatEmpty(t *testing.T) {
	s := run(t, "empty", "chat_empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 || len(s.Skips) != 0 {
		t.Fatalf("empty file: %+v %q %v", s.Events, s.Problems, s.Skips)
	}
}

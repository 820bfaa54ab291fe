package shellgpt

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 7, 3, 8, 30, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, local, orig, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: orig, Rel: rel, Agent: agentName, Target: target, MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s id=%s rec=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.ToolUseID, e.RecordID, e.ToolInput, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

func TestChat(t *testing.T) {
	s := run(t, "shellgpt/chat-cache", "testdata/deploy", "C:/Users/ex/AppData/Local/Temp/chat_cache/deploy", "AppData/Local/Temp/chat_cache/deploy", "chat-cache", "deploy")
	want := `0 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "chat cache last written (file mtime): 5 message(s) kept; ShellGPT keeps the first and the last CHAT_CACHE_LENGTH messages of a chat and records no time on them"
1 system  id= rec= in= t=/none: "role: You are ShellGPT\nYou are programming and system administration assistant.\nYou are managing Linux/Ubuntu 24.04 operating system with bash shell."
2 user  id= rec= in= t=/none: "remove the old logs in /var/log/app"
3 tool_use execute_shell_command id=call_sg1 rec=call_sg1 in={"shell_command":"rm -rf /var/log/app/*.old"} t=/none: "rm -rf /var/log/app/*.old"
4 tool_result execute_shell_command id=call_sg1 rec=call_sg1#output in= t=/none: "Exit code: 0, Output:\n"
5 assistant  id= rec= in= t=/none: "Removed the old logs."
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	for _, e := range s.Events {
		if e.SessionID != "deploy" {
			t.Fatalf("session: %+v", e)
		}
	}
}

// TestLegacyFunctionCall: the pre-1.5.0 function_call / function shape
// pairs by position; an empty assistant message is a Skip, a non-object a
// problem.
func TestLegacyFunctionCall(t *testing.T) {
	s := run(t, "shellgpt/chat-cache", "testdata/legacy-chat", "/tmp/chat_cache/legacy-chat", "", "chat-cache", "legacy-chat")
	want := `0 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "chat cache last written (file mtime): 7 message(s) kept; ShellGPT keeps the first and the last CHAT_CACHE_LENGTH messages of a chat and records no time on them"
1 system  id= rec= in= t=/none: "role: You are ShellGPT"
2 user  id= rec= in= t=/none: "what is my ip"
3 tool_use execute_shell_command id=legacy-chat:3 rec= in={"shell_command":"curl ifconfig.me"} t=/none: "curl ifconfig.me"
4 tool_result execute_shell_command id=legacy-chat:3 rec= in= t=/none: "Exit code: 0, Output:\n203.0.113.7"
5 assistant  id= rec= in= t=/none: "Your IP is 203.0.113.7."
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Skips) != 1 || s.Skips[0] != (parsertest.Skip{Line: 6, Reason: "no_evidence:empty_assistant"}) {
		t.Fatalf("skips: %+v", s.Skips)
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 7: skipped_record: not a chat message") {
		t.Fatalf("problems: %v", s.Problems)
	}
}

func TestChatMalformed(t *testing.T) {
	s := run(t, "shellgpt/chat-cache", "testdata/cut-chat", "/tmp/chat_cache/cut-chat", "", "chat-cache", "cut-chat")
	if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 0: not a chat (a JSON array of messages)") {
		t.Fatalf("cut chat: %+v %v", s.Events, s.Problems)
	}
}

func TestResponseCache(t *testing.T) {
	s := run(t, "shellgpt/response-cache", "testdata/0f3c6a7e1b2d4c5e8f9a0b1c2d3e4f50", "C:/Users/ex/AppData/Local/Temp/shell_gpt/cache/0f3c6a7e1b2d4c5e8f9a0b1c2d3e4f50", "", "response-cache", "response-cache")
	if len(s.Events) != 1 || rows(s) != `1 assistant  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "ls -la | grep log"`+"\n" || !s.Events[0].Secondary {
		t.Fatalf("rows: %s", rows(s))
	}
	sp := byID(t, "shellgpt/response-cache").(parser.Specced).Spec()
	if sp.Secondary == nil || sp.Secondary.Window != 0 || len(sp.Secondary.TurnTypes) != 1 || sp.Secondary.TurnTypes[0] != timeline.Assistant {
		t.Fatalf("secondary: %+v", sp.Secondary)
	}
}

// TestConfig: four keys only; the API key never reaches a row.
func TestConfig(t *testing.T) {
	s := run(t, "shellgpt/config", "testdata/sgptrc", "/home/ex/.config/shell_gpt/.sgptrc", ".config/shell_gpt/.sgptrc", "config", "sgptrc")
	want := `5 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "model setting: gpt-4o (from .config/shell_gpt/.sgptrc, file mtime)"
6 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "permission setting: OPENAI_USE_FUNCTIONS=true (from .config/shell_gpt/.sgptrc, file mtime)"
7 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "permission setting: DEFAULT_EXECUTE_SHELL_CMD=true (from .config/shell_gpt/.sgptrc, file mtime)"
8 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "permission setting: SHELL_INTERACTION=false (from .config/shell_gpt/.sgptrc, file mtime)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	out := string(parsertest.Render(s))
	if strings.Contains(out, "sk-proj") || strings.Contains(out, "OPENAI_API_KEY") {
		t.Fatal("the API key reached the output")
	}
	if c := s.SkipCounts(); c["setting_not_read"] != 4 || c["comment"] != 1 || len(s.Problems) != 1 || s.Problems[0] != "line 10: skipped_record: not a KEY=value line" {
		t.Fatalf("skips %v problems %v", c, s.Problems)
	}
	if !byID(t, "shellgpt/config").(parser.Specced).Spec().ReadsSecretKind {
		t.Fatal("config parser must declare ReadsSecretKind")
	}
}

func TestFunctions(t *testing.T) {
	s := run(t, "shellgpt/functions", "testdata/sgptrc", "/home/ex/.config/shell_gpt/functions/execute_shell_command.py", ".config/shell_gpt/functions/execute_shell_command.py", "functions", "functions")
	if rows(s) != `0 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "permission setting: function the model may call: execute_shell_command (from .config/shell_gpt/functions/execute_shell_command.py, file mtime)"`+"\n" {
		t.Fatalf("rows: %s", rows(s))
	}
	r := run(t, "shellgpt/functions", "testdata/sgptrc", "/home/ex/.config/shell_gpt/roles/ShellGPT.json", ".config/shell_gpt/roles/ShellGPT.json", "functions", "roles")
	if rows(r) != `0 system  id= rec= in= t=2026-07-03T08:30:00.000Z/file-mtime: "role defined: ShellGPT (from .config/shell_gpt/roles/ShellGPT.json, file mtime)"`+"\n" {
		t.Fatalf("rows: %s", rows(r))
	}
}

package iflow

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

const (
	sid = "session-7c1e2a90-4b3d-4f6e-9a8b-1c2d3e4f5a6b"
	rel = ".iflow/projects/-home-ex-proj-api/" + sid + ".jsonl"
)

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s model=%s id=%s rec=%s err=%s t=%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.Model, e.ToolUseID, e.RecordID, e.IsError, e.TimeString(), e.Text)
	}
	return b.String()
}

// TestTranscript reads a session written as iFlow's writer writes it
// (source-built: see testdata/README.md): the prompt is the only user
// row; the streaming snapshots repeat call_aaa1 and call_bbb2, whose rows
// carry the call id as RecordID so the identity merge writes each once;
// call_ccc3 written again with another input keeps both rows under one id
// (the merge reports the conflict); results take the function response's
// output or error, status "error" marks the error; the cut line is a
// problem, the meta record and the compaction summary system rows.
func TestTranscript(t *testing.T) {
	in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: "projects",
		MTime: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}, nil)
	s := parsertest.Golden(t, byID(t, "iflow/transcript"), in, "testdata/transcript.golden.jsonl")
	parsertest.Accounted(t, in, s)
	want := strings.ReplaceAll(`1 user  sid=@ model= id= rec=0a000000-0000-4000-8000-000000000001 err= t=2026-11-30T09:00:00.100Z: "find where the API key is read and print the config"
2 system  sid=@ model= id= rec=0a000000-0000-4000-8000-000000000002#model err= t=2026-11-30T09:00:02.000Z: "model: qwen3-coder-plus"
2 assistant  sid=@ model=qwen3-coder-plus id= rec=0a000000-0000-4000-8000-000000000002#0 err= t=2026-11-30T09:00:02.000Z: "I will search for the key first."
2 tool_use search_file_content sid=@ model=qwen3-coder-plus id=call_aaa1 rec=call_aaa1#tool_use err= t=2026-11-30T09:00:02.000Z: "API_KEY"
3 tool_use search_file_content sid=@ model=qwen3-coder-plus id=call_aaa1 rec=call_aaa1#tool_use err= t=2026-11-30T09:00:02.015Z: "API_KEY"
3 tool_use read_file sid=@ model=qwen3-coder-plus id=call_bbb2 rec=call_bbb2#tool_use err= t=2026-11-30T09:00:02.015Z: "/home/ex/proj/api/config.yaml"
4 tool_use read_file sid=@ model=qwen3-coder-plus id=call_bbb2 rec=call_bbb2#tool_use err= t=2026-11-30T09:00:02.020Z: "/home/ex/proj/api/config.yaml"
5 tool_result search_file_content sid=@ model= id=call_aaa1 rec=0a000000-0000-4000-8000-000000000005 err=false t=2026-11-30T09:00:03.000Z: "config.go:12: os.Getenv(\"API_KEY\")"
6 tool_result read_file sid=@ model= id=call_bbb2 rec=0a000000-0000-4000-8000-000000000006 err=false t=2026-11-30T09:00:03.010Z: "port: 8080\nkey_env: API_KEY"
7 tool_use run_shell_command sid=@ model=qwen3-coder-plus id=call_ccc3 rec=call_ccc3#tool_use err= t=2026-11-30T09:00:05.000Z: "cat /etc/shadow"
8 tool_result run_shell_command sid=@ model= id=call_ccc3 rec=0a000000-0000-4000-8000-000000000008 err=true t=2026-11-30T09:00:06.000Z: "cat: /etc/shadow: Permission denied"
9 tool_use run_shell_command sid=@ model=qwen3-coder-plus id=call_ccc3 rec=call_ccc3#tool_use err= t=2026-11-30T09:00:06.500Z: "sudo cat /etc/shadow"
11 assistant  sid=@ model=qwen3-coder-plus id= rec=0a000000-0000-4000-8000-00000000000a err= t=2026-11-30T09:00:08.000Z: "The key is read from the API_KEY environment variable in config.go."
12 system  sid=@ model= id= rec=0a000000-0000-4000-8000-00000000000b err= t=2026-11-30T09:10:00.000Z: "<system-reminder>context refreshed</system-reminder>"
13 system  sid=@ model= id= rec=0a000000-0000-4000-8000-00000000000c err= t=2026-11-30T09:11:00.000Z: "Summary: the user looked for the API key."
`, "@", sid)
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	probs := s.Problems
	if got, want := strings.Join(probs, "|"), "line 10: malformed JSON line (cut short or corrupt), skipped: "; !strings.HasPrefix(got, want) || len(probs) != 1 {
		t.Errorf("problems %q, want one starting %q", probs, want)
	}
}

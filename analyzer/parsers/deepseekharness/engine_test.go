package deepseekharness_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/deepseekharness"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

const rel = ".dsh/sessions/-home-ex-proj/dsh-s1/session.jsonl"

// engine runs one session log through the whole engine and returns its
// tool_use rows, the problems and the summary's repeats by record id.
func engine(t *testing.T, data []byte) (calls, problems []string, repeated int) {
	t.Helper()
	o := analyzetest.Run(t, deepseekharness.Parsers(), analyzetest.Bundle(t, deepseekharness.Agent, []bundletest.File{
		{Path: "home/examiner/" + rel, Target: "sessions", Data: data}}))
	for _, r := range o.Rows {
		if r.TurnType == "tool_use" {
			calls = append(calls, fmt.Sprintf("%d %s %s %s", r.SourceLine, r.RecordID, r.ToolName, r.ToolInput))
		}
	}
	for _, p := range o.Problems {
		if p.Kind == "duplicate_id" {
			problems = append(problems, p.Message)
		}
	}
	return calls, problems, o.Sum.RepeatedByID
}

// TestEngineCallEcho (issue 25 item 2): the tool/call event repeating the
// message's tool-call block reaches the correlate stage as a row of the
// same call identity and is merged there, counted once in the repeats;
// an echo with other arguments is kept beside the block's row and is a
// duplicate_id problem naming both places.
func TestEngineCallEcho(t *testing.T) {
	data, err := os.ReadFile("testdata/home/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	calls, problems, repeated := engine(t, data)
	want := []string{
		`8 dsh-s1/call/call-1 read_file {"path":"x"}`,
		`11 dsh-s1/call/call-2 bash {"command":"rm -rf /"}`,
	}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") || len(problems) != 0 || repeated != 1 {
		t.Fatalf("calls:\n%s\nproblems %q, repeated %d", strings.Join(calls, "\n"), problems, repeated)
	}

	echo := `"callId": "call-1", "name": "read_file", "arguments": "{\"path\":\"x\"}"`
	if !strings.Contains(string(data), echo) {
		t.Fatal("fixture changed: no tool/call echo of call-1")
	}
	other := strings.Replace(string(data), echo, `"callId": "call-1", "name": "read_file", "arguments": "{\"path\":\"/etc/shadow\"}"`, 1)
	calls, problems, repeated = engine(t, []byte(other))
	want = []string{
		`8 dsh-s1/call/call-1 read_file {"path":"x"}`,
		`9 dsh-s1/call/call-1 read_file {"path":"/etc/shadow"}`,
		`11 dsh-s1/call/call-2 bash {"command":"rm -rf /"}`,
	}
	wantP := `record id "dsh-s1/call/call-1" has 2 different contents: tool_use read_file "x" (at home/examiner/` + rel + `:8) and tool_use read_file "/etc/shadow" (at home/examiner/` + rel + `:9): all kept`
	if strings.Join(calls, "\n") != strings.Join(want, "\n") || strings.Join(problems, "|") != wantP || repeated != 0 {
		t.Fatalf("calls:\n%s\nproblems %q, repeated %d", strings.Join(calls, "\n"), problems, repeated)
	}
}

package vscopilot_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/vscopilot"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

const traces = "20260611T145205_aaaa1111_VSGitHubCopilot_traces.jsonl"

// engine runs one trace file through the whole engine and returns its
// user and tool_use rows, the duplicate_id problems and the summary's
// repeats by record id.
func engine(t *testing.T, data []byte) (rows, problems []string, repeated int) {
	t.Helper()
	o := analyzetest.Run(t, vscopilot.Parsers(), analyzetest.Bundle(t, vscopilot.Agent, []bundletest.File{
		{Path: "C/Users/ex/AppData/Local/Temp/VSGitHubCopilotLogs/traces/" + traces, Target: "traces", Data: data}}))
	for _, r := range o.Rows {
		if r.TurnType == "user" || r.TurnType == "tool_use" {
			rows = append(rows, fmt.Sprintf("%d %s %s %s %q", r.SourceLine, r.TurnType, r.RecordID, r.TimestampUTC, r.Text))
		}
	}
	for _, p := range o.Problems {
		if p.Kind == "duplicate_id" {
			problems = append(problems, p.Message)
		}
	}
	return rows, problems, o.Sum.RepeatedByID
}

// TestEngineRepeats (issue 25 item 2): the prompt every chat span of a
// request repeats, and the call a chat span names and an execute_tool
// span runs, reach the correlate stage as rows of one id each and are
// merged there (the earlier kept, two repeats counted); a step whose
// prompt differs under the same request id is kept beside the first and
// is a duplicate_id problem naming both places.
func TestEngineRepeats(t *testing.T) {
	data, err := os.ReadFile("testdata/" + traces)
	if err != nil {
		t.Fatal(err)
	}
	rows, problems, repeated := engine(t, data)
	want := []string{
		`2 user req-1#prompt 2026-06-12T19:46:41.000Z "delete the bin folder"`,
		`2 tool_use call_1 2026-06-12T19:46:41.000Z "rd /s /q bin"`,
		`4 tool_use call_2 2026-06-12T19:46:44.000Z "C:\\src\\app.config"`,
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") || len(problems) != 0 || repeated != 2 {
		t.Fatalf("rows:\n%s\nproblems %q, repeated %d", strings.Join(rows, "\n"), problems, repeated)
	}

	lines := strings.SplitN(string(data), "\n", 4)
	if !strings.Contains(lines[2], "delete the bin folder") {
		t.Fatal("fixture changed: line 3 does not repeat the prompt")
	}
	lines[2] = strings.Replace(lines[2], "delete the bin folder", "delete the src folder", 1)
	rows, problems, repeated = engine(t, []byte(strings.Join(lines, "\n")))
	want = []string{
		`2 user req-1#prompt 2026-06-12T19:46:41.000Z "delete the bin folder"`,
		`2 tool_use call_1 2026-06-12T19:46:41.000Z "rd /s /q bin"`,
		`3 user req-1#prompt 2026-06-12T19:46:43.000Z "delete the src folder"`,
		`4 tool_use call_2 2026-06-12T19:46:44.000Z "C:\\src\\app.config"`,
	}
	f := "C/Users/ex/AppData/Local/Temp/VSGitHubCopilotLogs/traces/" + traces
	wantP := `record id "req-1#prompt" has 2 different contents: user "delete the bin folder" (at ` + f + `:2) and user "delete the src folder" (at ` + f + `:3): all kept`
	if strings.Join(rows, "\n") != strings.Join(want, "\n") || strings.Join(problems, "|") != wantP || repeated != 1 {
		t.Fatalf("rows:\n%s\nproblems %q, repeated %d", strings.Join(rows, "\n"), problems, repeated)
	}
}

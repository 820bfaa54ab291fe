package iflow_test

import (
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/iflow"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestSnapshotsThroughTheEngine runs the fixture session through the
// engine: the streaming snapshots' copies of call_aaa1 and call_bbb2 are
// one tool_use row each, call_ccc3 (written again with another input)
// keeps both rows and gets one duplicate_id problem naming both places.
func TestSnapshotsThroughTheEngine(t *testing.T) {
	const rel = ".iflow/projects/-home-ex-proj-api/session-7c1e2a90-4b3d-4f6e-9a8b-1c2d3e4f5a6b.jsonl"
	data, err := os.ReadFile("testdata/home/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	o := analyzetest.Run(t, iflow.Parsers(), analyzetest.Bundle(t, "iflow", []bundletest.File{
		{Path: "/home/ex/" + rel, Target: "projects", Kind: "transcript", Data: data}}))
	calls := map[string][]string{}
	for _, r := range o.Rows {
		if r.TurnType == "tool_use" {
			calls[r.ToolUseID] = append(calls[r.ToolUseID], r.Text)
		}
	}
	if got := len(calls["call_aaa1"]) + len(calls["call_bbb2"]); got != 2 {
		t.Errorf("call_aaa1 and call_bbb2 give %d tool_use rows, want 1 each: %q", got, calls)
	}
	if got := strings.Join(calls["call_ccc3"], "|"); got != "cat /etc/shadow|sudo cat /etc/shadow" {
		t.Errorf("call_ccc3 rows %q", got)
	}
	var dup []string
	for _, p := range o.Problems {
		if strings.Contains(p.Message, "call_ccc3#tool_use") {
			dup = append(dup, p.Kind+": "+p.Message)
		}
	}
	if len(dup) != 1 || !strings.Contains(dup[0], `record id "call_ccc3#tool_use" has 2 different contents`) {
		t.Errorf("problems for call_ccc3: %q", dup)
	}
}

package findings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestFindingsECS: beside an ECS timeline, findings.ecs.jsonl holds each
// finding as an ECS alert (event.kind alert, severity by level, rule.*,
// threat.technique from the rule's ATT&CK tags or the detector's, the
// finding whole under doubleagent.finding); without one, nothing is
// written.
func TestFindingsECS(t *testing.T) {
	for _, ecs := range []bool{true, false} {
		dir := t.TempDir()
		if ecs {
			if err := os.WriteFile(filepath.Join(dir, analyze.TimelineECS), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		u, err := New(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		rows := []timeline.Row{
			{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", TurnType: "system", Text: "permission mode: bypassPermissions", TimestampUTC: "2026-01-01T00:00:00.000Z"},
			{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", TurnType: "system", Text: "session surface: sdk-cli", TimestampUTC: "2026-01-01T00:00:00.000Z"},
			// a launch of another agent with its guard rails off: the
			// bypassed-session rule keeps it as a finding of its own (the
			// mode row joins the headless finding)
			{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", TurnType: "tool_use", Text: "gemini --yolo -p hi", TimestampUTC: "2026-01-01T00:00:00.000Z"},
		}
		for i := range rows {
			if err := u.Row(int64(i+1), &rows[i]); err != nil {
				t.Fatal(err)
			}
		}
		sum, err := u.Finish()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, ECSFileName))
		if !ecs {
			if err == nil || len(sum.Paths) != 1 {
				t.Errorf("an ECS file without an ECS timeline: %v", sum.Paths)
			}
			continue
		}
		if err != nil || len(sum.Paths) != 2 {
			t.Fatalf("%v %v", sum.Paths, err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 {
			t.Fatalf("%d lines:\n%s", len(lines), b)
		}
		// the headless detector (its own techniques) sorts first by rule id, then the bypassed-session rule (its Sigma tag)
		want := []string{
			`{"@timestamp":"2026-01-01T00:00:00.000Z","ecs":{"version":"9.5.0-dev"},"message":"Agent ran with its approvals or sandbox turned off","event":{"kind":"alert","module":"doubleagent","dataset":"doubleagent.findings","severity":73,"start":"2026-01-01T00:00:00.000Z","end":"2026-01-01T00:00:00.000Z"},"rule":{"id":"ff47d7ba-7265-4eb7-878d-9d431036526f","name":"Agent ran with its approvals or sandbox turned off","category":"guard-rails","ruleset":"doubleagent","reference":"doubleagent_guardrails_bypassed_session.yml"},"threat":{"framework":"MITRE ATT&CK","technique":[{"id":"T1562","reference":"https://attack.mitre.org/techniques/T1562/","subtechnique":[{"id":"T1562.001","reference":"https://attack.mitre.org/techniques/T1562/001/"}]}]},"host":{"name":"h"},"user":{"name":"u"},"doubleagent":{"finding":{"rule_id":"ff47d7ba-7265-4eb7-878d-9d431036526f"`,
			`"rule":{"id":"4f2c8e6a-1d3b-4a97-8e05-b6c9d2f1a734","name":"Headless agent session, started by a process, ran with its guard rails off","category":"guard-rails","ruleset":"doubleagent","reference":"builtin:guard-rails"},"threat":{"framework":"MITRE ATT&CK","technique":[{"id":"T1562","reference":"https://attack.mitre.org/techniques/T1562/","subtechnique":[{"id":"T1562.001","reference":"https://attack.mitre.org/techniques/T1562/001/"}]}]}`,
		}
		if !strings.HasPrefix(lines[1], want[0]) || !strings.Contains(lines[0], want[1]) || !strings.Contains(lines[1], `"row_count":1,"rows_cut":false,"rows":[{"line":3,`) ||
			!strings.Contains(lines[0], `"row_count":2,`) {
			t.Errorf("ECS:\n%s\nwant\n%s\n...%s...", b, want[0], want[1])
		}
	}
}

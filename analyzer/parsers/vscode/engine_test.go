package vscode_test

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/vscode"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestChatEditingCopiesThroughTheEngine: a file's entry in both the
// recent and the pending snapshot of a chat editing session is one
// record. The parser lets both through under one record id: saying the
// same, the engine keeps one row; saying different states, it keeps both
// and names the conflict in one duplicate_id problem.
func TestChatEditingCopiesThroughTheEngine(t *testing.T) {
	const path = "/home/examiner/.config/Code/User/workspaceStorage/0a1b2c3d4e5f/chatEditingSessions/s-1/state.json"
	entry := func(state int) string {
		return `{"entries":[{"resource":"file:///home/examiner/demo/main.go","state":` + string(rune('0'+state)) + `,"telemetryInfo":{"requestId":"r1"}}]}`
	}
	for _, c := range []struct {
		name           string
		pending        int
		rows, problems []string
	}{
		{"same", 1, []string{"chat edited file: /home/examiner/demo/main.go state=accepted request=r1"}, nil},
		{"different", 2, []string{"chat edited file: /home/examiner/demo/main.go state=accepted request=r1", "chat edited file: /home/examiner/demo/main.go state=rejected request=r1"},
			[]string{`duplicate_id: record id "s-1#edited:/home/examiner/demo/main.go" has 2 different contents: system "chat edited file: /home/examiner/dem"..."tate=accepted request=r1"`}},
	} {
		data := `{"version":2,"sessionId":"s-1","recentSnapshot":` + entry(1) + `,"pendingSnapshot":` + entry(c.pending) + `}`
		o := analyzetest.Run(t, vscode.Parsers(), analyzetest.Bundle(t, "vscode", []bundletest.File{
			{Path: path, Target: "chat-editing", Kind: "other", Data: []byte(data)}}))
		var rows, probs []string
		for _, r := range o.Rows {
			if strings.HasPrefix(r.Text, "chat edited file: ") {
				rows = append(rows, r.Text)
			}
		}
		for _, p := range o.Problems {
			m := p.Kind + ": " + p.Message
			if i := strings.Index(m, " (at "); i > 0 {
				m = m[:i]
			}
			probs = append(probs, m)
		}
		if strings.Join(rows, "|") != strings.Join(c.rows, "|") || strings.Join(probs, "|") != strings.Join(c.problems, "|") {
			t.Errorf("%s: rows %q problems %q", c.name, rows, probs)
		}
	}
}

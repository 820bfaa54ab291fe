package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/findings"
	"github.com/doubleagent/doubleagent/analyzer/report"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestLargeOverview: past 1,000 sessions the overview draws each bar
// without a title, each run of bars of one agent in one group holding its
// colour, and the finding marks in one group without titles, each bar and
// mark still linking to its session or finding (the 5,000-session case
// was over 10 MB). Under 1,000, each bar and mark keeps its own colour
// and title.
func TestLargeOverview(t *testing.T) {
	for _, n := range []int{1001, 40} {
		dir := t.TempDir()
		var b strings.Builder
		for i := 0; i < n; i++ {
			agent := "claude-code"
			if i >= n/2 {
				agent = "codex-cli"
			}
			at := fmt.Sprintf("2026-12-01T%02d:%02d:00.000Z", i/60%24, i%60)
			j, _ := json.Marshal(timeline.Session{Host: "h", User: "u", Agent: agent, SessionID: fmt.Sprintf("s%04d", i), FirstUTC: at, LastUTC: at, Events: 1})
			b.Write(j)
			b.WriteByte('\n')
		}
		f, _ := json.Marshal(findings.Finding{RuleID: "r", RuleTitle: "A rule", Level: "high", Class: "guard-rails", RuleSource: "builtin:x", Host: "h", User: "u",
			Agent: "claude-code", SessionID: "s0003", FirstUTC: "2026-12-01T00:03:00.000Z", LastUTC: "2026-12-01T00:03:00.000Z", RowCount: 0})
		for name, data := range map[string]string{analyze.SessionsJSONL: b.String(), analyze.InventoryJSON: "{}\n", analyze.TimelineJSONL: "", findings.FileName: string(f) + "\n"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		files, err := report.Write(report.Options{Dir: dir, TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		page, _ := os.ReadFile(files[0])
		svg := string(page)
		svg = svg[strings.Index(svg, "<svg"):strings.Index(svg, "</svg>")]
		bars, marks := strings.Count(svg, `<a href="#s-h-u-`), strings.Count(svg, `<a href="#f-1"><path`)
		titles := strings.Count(svg, "<title>")
		if n > 1000 {
			if bars != n || marks != 1 || titles != 0 ||
				strings.Count(svg, `<g fill="`+colourOf(svg, "claude-code")+`">`) != 1 || strings.Count(svg, `<g fill="`+colourOf(svg, "codex-cli")+`">`) != 1 ||
				!strings.Contains(svg, `<g fill="#cf222e" stroke="#ffffff" stroke-width="0.8">`+"\n"+`<a href="#f-1"><path d="M`) ||
				!strings.Contains(svg, `<a href="#s-h-u-claude_2d_code-s0000"><rect x="`) || strings.Count(svg, "<g") != strings.Count(svg, "</g>") {
				t.Errorf("%d sessions: %d bars, %d marks, %d titles; groups %d:\n%.2000s", n, bars, marks, titles, strings.Count(svg, "<g"), svg)
			}
			continue
		}
		if bars != n || marks != 1 || titles != n+1 || strings.Contains(svg, "<g") {
			t.Errorf("%d sessions: %d bars, %d marks, %d titles, groups %v", n, bars, marks, titles, strings.Contains(svg, "<g"))
		}
	}
}

// colourOf is the legend's colour of agent in the overview.
func colourOf(svg, agent string) string {
	i := strings.Index(svg, ">"+agent+"</text>")
	if i < 0 {
		return "?"
	}
	j := strings.LastIndex(svg[:i], `fill="`)
	k := strings.LastIndex(svg[:j], `fill="`) // the swatch before the text
	v := svg[k+6:]
	return v[:strings.IndexByte(v, '"')]
}

package opencode

import (
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestSessionCopyThroughTheEngine: a session held by both session and
// session_v2 (a migration's copy) is no longer dropped inside the parser:
// the copy's rows go through under the same record ids. Saying the same,
// the engine keeps one row; with another title, both title rows stay and
// one duplicate_id problem names the record.
func TestSessionCopyThroughTheEngine(t *testing.T) {
	for _, c := range []struct {
		name, title string
		titles      []string
		problem     string
	}{
		{"same", "Old session", []string{"session title: Old session"}, ""},
		{"different", "Old session (renamed)", []string{"session title: Old session", "session title: Old session (renamed)"},
			`duplicate_id: record id "ses_old#title" has 2 different contents: system "session title: Old session"`},
	} {
		db := parsertest.SQLiteAltered(t, "testdata/opencode_2x.sql",
			`INSERT INTO session_v2 VALUES ('ses_old', 'prj1', NULL, '/home/examiner/src/app', '`+c.title+`', '1.2.0', NULL, 1760000000000, 1760000000000, NULL)`, "VACUUM")
		data, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, agentOpenCode, []bundletest.File{
			{Path: "/home/examiner/.local/share/opencode/opencode.db", Target: "db", Kind: "sqlite", Data: data}}))
		var titles, probs []string
		for _, r := range o.Rows {
			if r.SessionID == "ses_old" && strings.HasPrefix(r.Text, "session title: ") {
				titles = append(titles, r.Text)
			}
		}
		for _, p := range o.Problems {
			if strings.Contains(p.Message, "ses_old#") {
				m := p.Kind + ": " + p.Message
				if i := strings.Index(m, " (at "); i > 0 {
					m = m[:i]
				}
				probs = append(probs, m)
			}
		}
		if strings.Join(titles, "|") != strings.Join(c.titles, "|") || strings.Join(probs, "|") != c.problem {
			t.Errorf("%s: titles %q problems %q", c.name, titles, probs)
		}
	}
}

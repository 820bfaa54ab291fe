package kiro

import (
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestEntryCopyThroughTheEngine: entry u-1 is in the conversation's
// history and again in checkpoint 1's history snapshot. The parser no
// longer drops the copy: saying the same, the engine keeps one user row;
// with the snapshot's prompt changed, both rows stay and one duplicate_id
// problem names u-1#user.
func TestEntryCopyThroughTheEngine(t *testing.T) {
	for _, c := range []struct {
		name    string
		alter   []string
		prompts []string
		problem string
	}{
		{"same", nil, []string{"list the files and delete tmp/"}, ""},
		{"different", []string{`UPDATE conversations SET value = json_set(value, '$.checkpoint_manager.checkpoints[0].history_snapshot[1].user.content.Prompt.prompt', 'list the files') WHERE key = '/home/alice/demo'`},
			[]string{"list the files and delete tmp/", "list the files"}, `duplicate_id: record id "u-1#user" has 2 different contents`},
	} {
		db := parsertest.SQLiteAltered(t, "testdata/data.sql", c.alter...)
		data, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		bundle := analyzetest.Bundle(t, Agent, []bundletest.File{
			{Path: home + "/.local/share/amazon-q/data.sqlite3", Target: "cli-db", Kind: "sqlite", Data: data}})
		o := analyzetest.Run(t, Parsers(), bundle)
		var prompts, probs []string
		for _, r := range o.Rows {
			if r.RecordID == "u-1#user" {
				prompts = append(prompts, r.Text)
			}
		}
		for _, p := range o.Problems {
			if strings.Contains(p.Message, `"u-1#`) {
				if p.Input != bundle { // the correlate stage's problem names the input it came from
					t.Errorf("%s: problem %s input %q, want %q", c.name, p.Kind, p.Input, bundle)
				}
				m := p.Kind + ": " + p.Message
				if i := strings.Index(m, " (at "); i > 0 {
					m = m[:i]
				}
				probs = append(probs, m)
			}
		}
		if strings.Join(prompts, "|") != strings.Join(c.prompts, "|") || strings.Join(probs, "|") != c.problem {
			t.Errorf("%s: u-1#user rows %q problems %q", c.name, prompts, probs)
		}
	}
}

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
			[]string{"list the files and delete tmp/", "list the files"}, `duplicate_id: record id "u-1#user" has 2 different contents: user "list the files and delete tmp/"`},
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

// TestV2CopyThroughTheEngine: migration 008 left conversation A in the
// old conversations table and copied it into conversations_v2; the engine
// keeps one row of each entry both hold (m-1's prompt once) and the
// entries only conversations_v2 holds. The same conversation id saved
// under a second directory is two header rows and one duplicate_id
// problem naming it.
func TestV2CopyThroughTheEngine(t *testing.T) {
	a := "a0000000-0000-4000-8000-00000000000a"
	for _, c := range []struct {
		name    string
		alter   []string
		headers int
		problem string
	}{
		{"copy", nil, 1, ""},
		{"two keys", []string{`INSERT INTO conversations_v2 SELECT '/home/alice/app2', conversation_id, value, created_at, updated_at FROM conversations_v2 WHERE conversation_id = '` + a + `'`},
			2, `duplicate_id: record id "` + a + `#conversation" has 2 different contents: system "conversation a0000000-0000-4000-8000"..." model=claude-sonnet-4.5"`},
	} {
		data, err := os.ReadFile(parsertest.SQLiteAltered(t, "testdata/data_v2.sql", c.alter...))
		if err != nil {
			t.Fatal(err)
		}
		o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, Agent, []bundletest.File{
			{Path: home + "/.local/share/kiro-cli/data.sqlite3", Target: "cli-db", Kind: "sqlite", Data: data}}))
		prompts, headers := 0, 0
		for _, r := range o.Rows {
			if r.RecordID == "m-1#user" {
				prompts++
			}
			if r.RecordID == a+"#conversation" {
				headers++
			}
		}
		var probs []string
		for _, p := range o.Problems {
			if strings.Contains(p.Message, `"`+a+`#`) {
				m := p.Kind + ": " + p.Message
				if i := strings.Index(m, " (at "); i > 0 {
					m = m[:i]
				}
				probs = append(probs, m)
			}
		}
		if prompts != 1 || headers != c.headers || strings.Join(probs, "|") != c.problem {
			t.Errorf("%s: m-1#user rows %d, headers %d, problems %q", c.name, prompts, headers, probs)
		}
	}
}

// TestReadlineHistoryPairs: chat_readline_history's "run it" pairs with
// the conversation's prompt (0.2 s before it) and is dropped; "/quit", a
// line no conversation holds, stays as a secondary row.
func TestReadlineHistoryPairs(t *testing.T) {
	data, err := os.ReadFile(parsertest.SQLite(t, "testdata/data_v2.sql"))
	if err != nil {
		t.Fatal(err)
	}
	o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, Agent, []bundletest.File{
		{Path: home + "/.local/share/kiro-cli/data.sqlite3", Target: "cli-db", Kind: "sqlite", Data: data}}))
	var got []string
	for _, r := range o.Rows {
		if r.TurnType == "user" && (r.Text == "run it" || r.Text == "/quit") {
			got = append(got, r.Text+"|"+r.Secondary+"|"+r.SessionID)
		}
	}
	if strings.Join(got, ",") != "run it||a0000000-0000-4000-8000-00000000000a,/quit|true|" {
		t.Errorf("readline rows %q", got)
	}
}

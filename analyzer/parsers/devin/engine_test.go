package devin

import (
	"os"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestTranscriptPairsWithNodes: sessions.db and the transcript of the same
// session through the engine. The transcript's prompt, replies, call and
// result (thinking is not in the engine's default rows) pair with the message nodes' rows and are dropped; the
// system prompt too; what only the transcript holds (its metrics) stays.
func TestTranscriptPairsWithNodes(t *testing.T) {
	db, err := os.ReadFile(parsertest.SQLite(t, "testdata/sessions.sql"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := os.ReadFile("testdata/transcripts/sess-1.json")
	if err != nil {
		t.Fatal(err)
	}
	o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, Agent, []bundletest.File{
		{Path: root + "sessions.db", Target: "sessions-db", Kind: "sqlite", Data: db},
		{Path: root + "transcripts/sess-1.json", Target: "transcripts", Kind: "transcript", Data: tr},
	}))
	count := map[string]int{}
	secondary := 0
	for _, r := range o.Rows {
		if r.SessionID == "sess-1" {
			count[r.Text]++
		}
		if r.Secondary == "true" {
			secondary++
		}
	}
	for _, text := range []string{"Fix the login bug", "Inspecting files.", "shell_command", "src/login.ts:3: if (pw = hash)", "Fixed the assignment in the comparison.", "system message: You are Devin."} {
		if count[text] != 1 {
			t.Errorf("%q: %d rows, want 1 (the node's; the transcript's step pairs with it)", text, count[text])
		}
	}
	if secondary != 0 || count[`step metrics: {"prompt_tokens":1200,"completion_tokens":80,"cached_tokens":300}`] != 1 {
		t.Errorf("secondary rows left %d, metrics rows %d", secondary, count[`step metrics: {"prompt_tokens":1200,"completion_tokens":80,"cached_tokens":300}`])
	}
}

package letta

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// Issue 25 (copies are the correlate stage's): a conversation holding an
// entry twice, once byte for byte and once with other text under the
// same entry id, through the whole engine. The identical copy is one row
// (counted as repeated by id) and gives no "rewritten" row; the changed
// copy keeps both rows and is one duplicate_id problem naming both
// lines; a real rewrite (a new entry for the message id) is still named.
func TestEngineEntryCopies(t *testing.T) {
	const (
		head = `{"type":"session","version":3,"id":"local-conv-1","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/home/examiner/proj"}`
		u1   = `{"type":"message","id":"e-u1","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"id":"ui-msg-1","role":"user","content":[{"type":"text","text":"list the files"}],"timestamp":1772359201000}}`
		a1   = `{"type":"message","id":"e-a1","parentId":"e-u1","timestamp":"2026-03-01T10:00:02.000Z","message":{"id":"ui-msg-2","role":"assistant","content":[{"type":"text","text":"Listing."}],"provider":"openai-compatible","model":"mock-coder","stopReason":"stop","timestamp":1772359202000}}`
		a2   = `{"type":"message","id":"e-a2","parentId":"e-a1","timestamp":"2026-03-01T10:00:04.000Z","message":{"id":"ui-msg-2","role":"assistant","content":[{"type":"text","text":"Listing (rewritten)."}],"provider":"openai-compatible","model":"mock-coder","stopReason":"stop","timestamp":1772359204000}}`
	)
	a1Edited := strings.Replace(a1, `"Listing."`, `"Listing, edited."`, 1)
	data := strings.Join([]string{head, u1, u1, a1, a1Edited, a2}, "\n") + "\n"
	o := analyzetest.Run(t, Parsers(), analyzetest.Bundle(t, Agent, []bundletest.File{
		{Path: conv1Dir + "/messages.jsonl", Target: "conversations", Data: []byte(data)},
	}))
	var got []string
	for _, r := range o.Rows {
		got = append(got, fmt.Sprintf("%d %s %s | %s", r.SourceLine, r.TurnType, r.Text, r.RecordID))
	}
	want := []string{
		"2 user list the files | local-conv-1/e-u1#0",
		"4 assistant Listing. | local-conv-1/e-a1#0",
		"5 assistant Listing, edited. | local-conv-1/e-a1#0",
		"6 assistant Listing (rewritten). | local-conv-1/e-a2#0",
		"6 system message ui-msg-2 rewritten: entry e-a2 replaces the copy at line 4 | local-conv-1/e-a2#replaces",
	}
	var rows []string
	for _, g := range got {
		if !strings.Contains(g, "model: ") {
			rows = append(rows, g)
		}
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	var probs []string
	for _, p := range o.Problems {
		probs = append(probs, p.Kind+": "+p.Message)
	}
	wantP := parser.KindDuplicateID + `: record id "local-conv-1/e-a1#0" has 2 different contents: assistant "Listing." (at ` + conv1Dir + `/messages.jsonl:4) and assistant "Listing, edited." (at ` + conv1Dir + `/messages.jsonl:5): all kept`
	if strings.Join(probs, "\n") != wantP {
		t.Fatalf("problems:\n%s", strings.Join(probs, "\n"))
	}
	if o.Sum.RepeatedByID != 1 || o.Sum.DuplicateIDs != 1 {
		t.Fatalf("repeated by id %d, duplicate ids %d", o.Sum.RepeatedByID, o.Sum.DuplicateIDs)
	}
}

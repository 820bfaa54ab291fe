package agentzero_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parsers/agentzero"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// trimmedChat is the fixture chat with its log cut at 1000 items that
// still hold the prompt u1, the tool item t1 and the final response a2
// (answer its text): each is also in the history, which the parser reads
// in full because the log is cut.
func trimmedChat(t *testing.T, answer string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/usr/chats/Kx7Qp2aB/chat.json")
	if err != nil {
		t.Fatal(err)
	}
	var chat map[string]any
	if err := json.Unmarshal(b, &chat); err != nil {
		t.Fatal(err)
	}
	orig := chat["log"].(map[string]any)["logs"].([]any)
	logs := []any{orig[0], orig[2]}
	for len(logs) < 999 {
		logs = append(logs, map[string]any{"no": len(logs), "id": fmt.Sprintf("p%d", len(logs)), "type": "progress", "heading": "", "content": "", "timestamp": 1786100002.5, "agentno": 0})
	}
	logs = append(logs, map[string]any{"no": 999, "id": "a2", "type": "response", "heading": "A0: Responding", "content": answer, "timestamp": 1786100006.0, "agentno": 0})
	chat["log"] = map[string]any{"logs": logs}
	nb, err := json.Marshal(chat)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// engine runs the chat and its messages file through the whole engine and
// returns its rows, the duplicate_id problems and the summary's repeats
// by record id.
func engine(t *testing.T, chat []byte) (rows, problems []string, repeated int) {
	t.Helper()
	msg, err := os.ReadFile("testdata/usr/chats/Kx7Qp2aB/messages/1.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := "home/examiner/agent-zero/usr/chats/Kx7Qp2aB/"
	b := analyzetest.Bundle(t, "agent-zero", []bundletest.File{
		{Path: dir + "chat.json", Target: "chats", Data: chat},
		{Path: dir + "messages/1.txt", Target: "chat-messages", Data: msg}})
	out := filepath.Join(t.TempDir(), "out")
	sum, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{b}, OutDir: out, Parsers: agentzero.Parsers(), Jobs: 1, TempDir: t.TempDir(), IncludeThinking: true})
	if err != nil {
		t.Fatal(err)
	}
	o := analyzetest.Read(t, out)
	for _, r := range o.Rows {
		if r.Parser == "agent-zero/chat" && !strings.HasPrefix(r.RecordID, "chat:") {
			rows = append(rows, fmt.Sprintf("%d %s %s %s %.24q", r.SourceLine, r.TurnType, r.RecordID, r.TimeBasis, r.Text))
		}
	}
	for _, p := range o.Problems {
		if p.Kind == "duplicate_id" {
			problems = append(problems, p.Message)
		}
	}
	return rows, problems, sum.RepeatedByID
}

// TestEngineHistoryCopy (issue 25 item 2): in a cut log, the history
// copies of the log items u1, t1 and a2 reach the correlate stage as rows
// named as the log's rows of their turn types, with the text the log rows
// took from the history, and are merged there (the dated log rows kept,
// three repeats counted); the reply's thoughts, which no log row holds,
// stay an undated row. A response the log records with other text than
// the history's is kept beside it, and is a duplicate_id problem naming
// both places.
func TestEngineHistoryCopy(t *testing.T) {
	rows, problems, repeated := engine(t, trimmedChat(t, "The journal uses 12G."))
	want := []string{
		`1 user u1  "list the big files in /v"`,
		`2 tool_use t1  "du -sh /var/log/*"`,
		`2 tool_result t1#output  "12G /var/log/journal\n2.1"`,
		`1000 assistant a2  "The journal uses 12G."`,
		`1002 thinking a1#0 none "Use du."`,
		`1002 tool_use a1#1 none "code_execution_tool"`,
		`1004 thinking a2#0 none "Answer."`,
		`1005 system s1 none "subagent task: check jou"`,
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") || len(problems) != 0 || repeated != 3 {
		t.Fatalf("rows:\n%s\nproblems %q, repeated %d", strings.Join(rows, "\n"), problems, repeated)
	}

	rows, problems, repeated = engine(t, trimmedChat(t, "The journal uses 13G."))
	f := "home/examiner/agent-zero/usr/chats/Kx7Qp2aB/chat.json"
	wantP := `record id "a2" has 2 different contents: assistant "The journal uses 13G." (at ` + f + `:1000) and assistant "The journal uses 12G." (at ` + f + `:1004): all kept`
	if strings.Join(problems, "|") != wantP || repeated != 2 || len(rows) != len(want)+1 {
		t.Fatalf("rows:\n%s\nproblems %q, repeated %d", strings.Join(rows, "\n"), problems, repeated)
	}
}

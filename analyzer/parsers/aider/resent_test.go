package aider

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestRequestSentAgain (issue 25 item 2): the llm history no longer drops
// a request whose last message it has seen. The same words sent again in
// the same run are a system row naming the first request; the same words
// in another run are that run's prompt, a user row of their own (text
// never merges rows across sessions). Every block gives a row.
func TestRequestSentAgain(t *testing.T) {
	dir := t.TempDir()
	llm := filepath.Join(dir, llmName)
	chat := filepath.Join(dir, chatName)
	block := func(at, text string) string {
		return "TO LLM " + at + "\n-------\nSYSTEM be brief\n-------\nUSER " + text + "\nLLM RESPONSE " + at + "\nASSISTANT done\n"
	}
	body := block("2025-05-04T10:00:00", "run the tests") + // user line 5
		block("2025-05-04T10:05:00", "run the tests") + // user line 12: same run
		block("2025-05-04T12:00:00", "run the tests") // user line 19: next run
	if err := os.WriteFile(llm, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(chat, []byte("\n# aider chat started at 2025-05-04 09:59:00\n\n# aider chat started at 2025-05-04 11:59:00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := parser.File{Path: "/home/ex/p/" + llmName, Agent: Agent, Target: "project"}
	s := parsertest.Run(t, byID(t, "aider/llm-history"), parsertest.Input(t, llm, f, parsertest.Files{"/home/ex/p/" + chatName: chat}))
	var got []string
	for _, e := range s.Events {
		if e.TurnType == timeline.User || e.TurnType == timeline.System {
			got = append(got, string(e.TurnType)+" "+e.SessionID+" "+strings.TrimSpace(e.Text)+" @"+strconv.FormatInt(e.SourceLine, 10))
		}
	}
	want := []string{
		"user aider-20250504T095900 run the tests @5",
		"system aider-20250504T095900 request sent again (the same last message as the request at line 5): run the tests @12",
		"user aider-20250504T115900 run the tests @19",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(s.Skips) != 0 || len(s.Problems) != 0 {
		t.Errorf("skips %v problems %v", s.Skips, s.Problems)
	}
}

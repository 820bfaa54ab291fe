package aider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestRealLLMHistory reads jkassemi/friendly_names' .aider.llm.history
// (33ef87a, aider of January 2025): 33 TO LLM and 33 LLM RESPONSE blocks.
func TestRealLLMHistory(t *testing.T) {
	local := parsertest.SharedSamples(t, "aider/friendly_names/.aider.llm.history")
	f := parser.File{Path: "/home/jk/friendly_names/" + llmName, Agent: Agent, Target: "project"}
	s := parsertest.Run(t, byID(t, "aider/llm-history"), parsertest.Input(t, local, f, nil))
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems[:min(len(s.Problems), 5)])
	}
	var users, replies []timeline.Event
	for _, e := range s.Events {
		if !e.Secondary || e.TimeBasis != timeline.TimeLocalAsUTC || e.ProjectPath != "/home/jk/friendly_names" {
			t.Fatalf("row: %+v", e)
		}
		switch e.TurnType {
		case timeline.User:
			users = append(users, e)
		case timeline.Assistant:
			replies = append(replies, e)
		}
	}
	if len(replies) != 33 {
		t.Errorf("replies: %d, want 33", len(replies))
	}
	first := users[0]
	if first.Text != "This project is a super simple random friendly name generator I keep needing everywhere that can be installed easily with pip - pip install friendly_names. We need this in the README.md and in the pyproject.toml" ||
		first.TimeString() != "2025-01-31T11:21:36.000Z" || first.SourceLine != 123 {
		t.Errorf("first prompt: %q at %s line %d", first.Text, first.TimeString(), first.SourceLine)
	}
	if users[1].Text != `let's think through the ideal interface. I imagine using it to generate names like "red-loop-bounty"` ||
		users[1].TimeString() != "2025-01-31T11:23:00.000Z" {
		t.Errorf("second prompt: %q at %s", users[1].Text, users[1].TimeString())
	}
	r := replies[0]
	if !strings.HasPrefix(r.Text, "I notice that while the project structure is set up, both the README.md and pyproject.toml") ||
		!strings.HasSuffix(r.Text, "to ensure everything is properly documented.") || r.TimeString() != "2025-01-31T11:21:41.000Z" || r.SourceLine != 124 {
		t.Errorf("first reply: %.120q at %s line %d", r.Text, r.TimeString(), r.SourceLine)
	}
	if !strings.Contains(r.Text, "\n```toml\n[project]\nname = \"friendly_names\"") {
		t.Errorf("reply lines lost their role prefix badly: %.300q", r.Text)
	}
	// No file bodies or system prompts leak into user rows.
	for _, u := range users {
		if strings.HasPrefix(u.Text, "I have *added these files") || strings.HasPrefix(u.Text, "Act as an expert") {
			t.Errorf("context message as prompt: %.80q", u.Text)
		}
	}
	// The edit-format reminder appended to the prompt is cut off.
	if users[2].Text != "yes, let's do that and make sure the README.md is updated" || users[2].TimeString() != "2025-01-31T11:23:42.000Z" {
		t.Errorf("third prompt: %.120q", users[2].Text)
	}
	// The architect's plan handed to the editor model is no prompt.
	for _, u := range users {
		if strings.HasPrefix(u.Text, "I'll help you set up pytest") || strings.HasPrefix(u.Text, "I added these files") {
			t.Errorf("aider's own message as prompt: %.80q", u.Text)
		}
	}
	var added bool
	for _, e := range s.Events {
		if e.TurnType == timeline.System && strings.HasPrefix(e.Text, "I added these files to the chat: src/friendly_names/__init__.py") && e.TimeString() == "2025-01-31T11:23:54.000Z" {
			added = true
		}
	}
	if !added {
		t.Error("files-added message is not a system row")
	}
	if len(users) != 16 {
		t.Errorf("prompts: %d, want 16", len(users))
	}
	// issue 12: every request block is a row or a counted skip: 33 TO LLM
	// blocks = 16 prompts + 4 messages aider wrote + 10 architect plans
	// handed to the editor + 3 requests sent again in their run (issue 25:
	// kept as system rows naming the first, no longer dropped by text)
	sys := 0
	var again []string
	for _, e := range s.Events {
		if e.TurnType == timeline.System {
			sys++
			if strings.HasPrefix(e.Text, "request sent again (the same last message as the request at line ") {
				again = append(again, fmt.Sprintf("%d<-%s", e.SourceLine, e.Text[len("request sent again (the same last message as the request at line "):strings.Index(e.Text, ")")]))
			}
		}
	}
	if sc := s.SkipCounts(); sc["copy_of_reply"] != 10 || len(s.Skips) != 10 || sys != 7 {
		t.Errorf("skips %v, %d system rows", sc, sys)
	}
	if got := strings.Join(again, " "); got != "9940<-4785 18982<-18537 19390<-18537" {
		t.Errorf("requests sent again (line<-first): %s", got)
	}
	t.Logf("%d prompts, %d replies, skips %v", len(users), len(replies), s.SkipCounts())
}

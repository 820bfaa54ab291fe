package pydanticclai

import (
	"context"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "pydantic-clai"

// Parsers returns the Pydantic AI CLAI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "pydantic-clai/prompt-history", Agent: agentName, Version: 1,
			Targets: []string{"prompt-history"}, Names: []string{"prompt-history.txt"},
			Doc: "clai v1 ~/.pydantic-ai/prompt-history.txt (prompt_toolkit FileHistory): each typed prompt a user row, slash commands system rows, host-local times (local-as-utc)",
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "pydantic-clai/sessions-db", Agent: agentName, Version: 2,
			Actions: actions,
			Targets: []string{"sessions-db"}, Names: []string{"sessions.db"},
			Doc: "CLAI 2.0 pydantic-clai2/sessions.db conversations: one summary row per conversation (title, workspace, model, outcome, owner pid), then its pydantic-ai message parts: typed prompts, system prompts and instructions, reasoning, replies, tool calls and returns, retries",
		}, parseSessionsDB),
	}
}

// parsePromptHistory reads clai v1's prompt history
// (pydantic_ai/_cli/__init__.py: PromptSession(history=FileHistory(...))).
// clai v1 keeps no conversation on disk: the history is the only record
// of its prompts, so its rows are not secondary.
func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.FileHistory(ctx, rc, out, func(n int64, at, text string) {
		e := timeline.Event{TurnType: timeline.User, Text: text, SourceLine: n}
		if t, err := time.Parse("2006-01-02 15:04:05.999999999", at); err == nil {
			e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		if strings.HasPrefix(text, "/") {
			e.TurnType, e.Text = timeline.System, "command: "+text
		}
		out.Event(e)
	})
}

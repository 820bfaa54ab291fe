package gemini

import (
	"context"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/geminichat"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseLogs reads tmp/<slug>/logs.json, the prompt log the agent rewrites
// whole: a JSON array decoded element by element from the stream. Each
// entry is a secondary row (the transcript holds the same prompt) whose
// source line is its 1-based array index.
func parseLogs(ctx context.Context, in *parser.Input, out parser.Sink) error {
	project := newProjectResolver(in).Path("")
	return geminichat.ReadLogs(ctx, in, out, func(idx int64, le geminichat.LogEntry) {
		t, basis := time.Time{}, timeline.TimeNone
		if pt, ok := parser.ParseTime(le.Timestamp); ok {
			t, basis = pt, timeline.TimeRecorded
		}
		tt := timeline.User
		text := le.Message
		if le.Type != "user" && le.Type != "" {
			tt = timeline.System
			text = le.Type + ": " + text
		} else if injected(text) {
			tt = timeline.System
		}
		out.Event(timeline.Event{Time: t, TimeBasis: basis, SessionID: le.SessionID, ProjectPath: project,
			TurnType: tt, Text: text, SourceLine: idx, Secondary: true})
	})
}

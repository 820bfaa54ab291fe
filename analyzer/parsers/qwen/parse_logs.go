package qwen

// Qwen's rows of the logger.ts array Gemini CLI shares (geminichat.ReadLogs):
// Qwen adds model_switch entries, which Gemini CLI's logs.json does not have.

import (
	"context"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/geminichat"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// modelSwitch is the ModelSwitchEvent a model_switch entry's message holds
// as JSON; an older or hand-written message may be plain "a→b" text.
type modelSwitch struct {
	FromModel string `json:"fromModel"`
	ToModel   string `json:"toModel"`
	Reason    string `json:"reason"`
	Context   string `json:"context"`
}

// parseLogs reads tmp/<hash>/logs.json, the prompt log the agent rewrites
// whole: a JSON array decoded element by element from the stream. A user
// entry is a secondary user row (the transcript holds the same prompt), a
// model_switch entry a secondary "model: <from> -> <to> reason=<reason>"
// row; the source line is the 1-based array index.
func parseLogs(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return geminichat.ReadLogs(ctx, in, out, func(idx int64, le geminichat.LogEntry) {
		t, basis := time.Time{}, timeline.TimeNone
		if pt, ok := parser.ParseTime(le.Timestamp); ok {
			t, basis = pt, timeline.TimeRecorded
		}
		ev := timeline.Event{Time: t, TimeBasis: basis, SessionID: le.SessionID, TurnType: timeline.System,
			SourceLine: idx, Secondary: true}
		switch le.Type {
		case "user", "":
			ev.Text = le.Message
			if !injected(le.Message) {
				ev.TurnType = timeline.User
			}
		case "model_switch":
			ev.Text = switchText(le.Message)
		default:
			ev.Text = le.Type + ": " + le.Message
		}
		out.Event(ev)
	})
}

func switchText(msg string) string {
	var ms modelSwitch
	if json.Unmarshal([]byte(msg), &ms) == nil && (ms.FromModel != "" || ms.ToModel != "") {
		text := "model: " + ms.FromModel + " -> " + ms.ToModel
		if ms.Reason != "" {
			text += " reason=" + ms.Reason
		}
		return text
	}
	for _, sep := range []string{"→", "->"} {
		if from, to, ok := strings.Cut(msg, sep); ok {
			return "model: " + strings.TrimSpace(from) + " -> " + strings.TrimSpace(to)
		}
	}
	return "model switch: " + msg
}

package qwen

// Qwen's own loop over the logger.ts array Gemini CLI shares: Qwen adds
// model_switch entries, which Gemini CLI's logs.json does not have.

import (
	"context"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// logEntry is one element of logs.json (core/logger.ts LogEntry).
type logEntry struct {
	SessionID string `json:"sessionId"`
	MessageID any    `json:"messageId"`
	Type      string `json:"type"`
	Message   string `json:"message"`
	Timestamp string `json:"timestamp"`
}

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
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	dec := json.NewDecoder(rc)
	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		out.Problem(0, "empty file")
		return nil
	}
	if err != nil {
		out.Problem(0, "not a JSON array: "+err.Error())
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		out.Problem(0, "not a JSON array")
		return nil
	}
	var idx int64
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return err
		}
		idx++
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			out.Problem(idx, "entry cut short: "+err.Error())
			return nil
		}
		var le logEntry
		if err := json.Unmarshal(raw, &le); err != nil {
			out.Problem(idx, "not a log entry: "+err.Error())
			continue
		}
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
	}
	if _, err := dec.Token(); err != nil {
		out.Problem(idx, "array cut short: "+err.Error())
	}
	return nil
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

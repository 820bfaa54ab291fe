package gemini

import (
	"context"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
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

// parseLogs reads tmp/<slug>/logs.json, the prompt log the agent rewrites
// whole: a JSON array decoded element by element from the stream. Each
// entry is a secondary row (the transcript holds the same prompt) whose
// source line is its 1-based array index.
func parseLogs(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	project := newProjectResolver(in).Path("")
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
	}
	if _, err := dec.Token(); err != nil {
		out.Problem(idx, "array cut short: "+err.Error())
	}
	return nil
}

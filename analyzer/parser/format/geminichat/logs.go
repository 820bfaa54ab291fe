package geminichat

import (
	"context"
	"errors"
	"fmt"
	"io"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// LogEntry is one element of logs.json (core/logger.ts LogEntry), the
// prompt log Gemini CLI and Qwen Code rewrite whole.
type LogEntry struct {
	SessionID string `json:"sessionId"`
	MessageID any    `json:"messageId"`
	Type      string `json:"type"`
	Message   string `json:"message"`
	Timestamp string `json:"timestamp"`
}

// ReadLogs streams the logs.json array of in element by element and calls
// entry with each entry's 1-based array index (its source line). An empty
// file, a file that is not an array, an element that is not a log entry
// and a cut array are problems; an element cut short ends the read.
func ReadLogs(ctx context.Context, in *parser.Input, out parser.Sink, entry func(idx int64, le LogEntry)) error {
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
		out.Problem(0, parser.NotJSONArray("", err))
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		out.Problem(0, parser.NotJSONArray("", nil))
		return nil
	}
	var cut = errors.New("cut")
	idx, err := parser.EachElement(ctx, dec, func(idx int64) error {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			out.Problem(idx, "entry cut short: "+parser.JSONError(err))
			return cut
		}
		var le LogEntry
		if err := json.Unmarshal(raw, &le); err != nil {
			out.Problem(idx, "not a log entry: "+parser.JSONError(err))
			return nil
		}
		entry(idx, le)
		return nil
	})
	var te *parser.TokenError
	switch {
	case errors.As(err, &te):
		out.Problem(idx, "array cut short: "+te.Err.Error())
	case err != nil && err != cut:
		return err
	}
	return nil
}

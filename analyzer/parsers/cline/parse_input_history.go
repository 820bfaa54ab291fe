package cline

import (
	"context"
	json "github.com/go-json-experiment/json/v1"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseInputHistory reads the CLI's cache/user_input_history.jsonl: one
// secondary user row per prompt, no session or project. Every rewrite
// stamps each line with its own write time, so only the last line's time
// is kept (the others are undated).
func parseInputHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var pending *timeline.Event
	flush := func(keepTime bool) {
		if pending == nil {
			return
		}
		if !keepTime {
			pending.Time, pending.TimeBasis = time.Time{}, timeline.TimeNone
		}
		out.Event(*pending)
		pending = nil
	}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r struct {
			Text    string `json:"text"`
			Input   string `json:"input"`
			Prompt  string `json:"prompt"`
			TS      num    `json:"ts"`
			Time    num    `json:"timestamp"`
			Created num    `json:"createdAt"`
		}
		var s string
		if json.Unmarshal(line, &s) == nil {
			r.Text = s
		} else if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		text := firstNonEmpty(r.Text, r.Input, r.Prompt)
		if text == "" {
			out.Skip(n, "empty_prompt")
			return nil
		}
		flush(false)
		t := msTime(float64(firstNum(r.TS, r.Time, r.Created)))
		e := timeline.Event{Time: t, TurnType: timeline.User, Text: text, SourceLine: n, Secondary: true}
		if t.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		pending = &e
		return nil
	})
	flush(true)
	return err
}

func firstNum(ns ...num) num {
	for _, n := range ns {
		if n != 0 {
			return n
		}
	}
	return 0
}

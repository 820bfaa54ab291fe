package opencode

import (
	"context"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parsePromptHistory reads the terminal UI's prompt-history.jsonl (one
// {input, parts, mode} per prompt typed, newest last, no time and no
// session) as secondary user rows, and prompt-stash.jsonl (drafts put
// aside with {input, parts, timestamp}) as secondary "prompt stashed:"
// system rows.
func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	stash := strings.HasPrefix(baseName(in.Path), "prompt-stash")
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var v struct {
			Input     string `json:"input"`
			Mode      string `json:"mode"`
			Timestamp num    `json:"timestamp"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			out.Problem(n, "bad JSON line: "+err.Error())
			return nil
		}
		if strings.TrimSpace(v.Input) == "" {
			return nil
		}
		ev := timeline.Event{SourceLine: n, Secondary: true, Text: v.Input, TurnType: timeline.User}
		if t := msTime(int64(v.Timestamp)); !t.IsZero() {
			ev.Time = t
		} else {
			ev.TimeBasis = timeline.TimeNone
		}
		if v.Mode == "shell" {
			ev.Text = "!" + v.Input
		}
		if stash {
			ev.TurnType, ev.Text = timeline.System, "prompt stashed: "+ev.Text
		}
		out.Event(ev)
		return nil
	})
}

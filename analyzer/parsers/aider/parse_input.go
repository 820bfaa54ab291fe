package aider

import (
	"context"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseInput reads prompt_toolkit's FileHistory: "# <str(datetime.now())>"
// then one "+<line>" per line of the entry.
func parseInput(ctx context.Context, in *parser.Input, out parser.Sink) error {
	starts := runStarts(ctx, in, out)
	proj := projectPath(in.Path)
	dec := &decoder{out: out}
	var (
		t     time.Time
		first int64
		lines []string
		open  bool
	)
	flush := func() {
		switch {
		case open && len(lines) > 0:
			e := event(t, runOf(starts, t), proj, timeline.User, strings.Join(lines, "\n"), first)
			e.Secondary = true
			out.Event(e)
		case open:
			out.Skip(first, "empty_prompt")
		}
		open, lines = false, nil
	}
	err := readLines(ctx, in, out, func(n int64, raw []byte) error {
		s := dec.text(n, raw)
		switch {
		case strings.HasPrefix(s, "+"):
			if !open {
				// Lines before any header (a file cut at its start).
				open, t, first = true, time.Time{}, n
			}
			lines = append(lines, s[1:])
		case strings.HasPrefix(s, "#"):
			flush()
			open, first = true, n
			ts := strings.TrimSpace(strings.TrimPrefix(s, "#"))
			var err error
			if t, err = parseLocal(ts); err != nil {
				out.Problem(n, "bad entry time: "+ts)
			}
		default:
			out.Problem(n, "not a history line")
		}
		return nil
	})
	flush()
	return err
}

// parseLocal reads Python's str(datetime) ("2025-05-04 17:06:57.158813",
// microseconds left out when zero) or isoformat with a "T".
func parseLocal(s string) (time.Time, error) {
	s = strings.Replace(s, "T", " ", 1)
	return time.Parse("2006-01-02 15:04:05.999999999", s)
}

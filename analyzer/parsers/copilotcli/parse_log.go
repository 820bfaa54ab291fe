package copilotcli

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// signInLine matches the process log's sign-in lines.
var signInLine = regexp.MustCompile(`(?i)(signed in|logged in|signing in|sign-in|authenticated as|logged out|signed out)`)

// tokenLike matches GitHub token values, which are masked if a log line
// ever carries one.
var tokenLike = regexp.MustCompile(`\b(gh[opsur]_[A-Za-z0-9]{10,}|github_pat_[A-Za-z0-9_]{10,})`)

// leadingTime matches an ISO 8601 time at the start of a log line.
var leadingTime = regexp.MustCompile(`^\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\]?\s*`)

// parseProcessLog reads logs/process-*.log for its sign-in lines: one
// "sign-in: <line>" row each, at the line's leading timestamp (a time
// without a zone is taken as UTC and marked local-as-utc).
func parseProcessLog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		l := string(line)
		if !signInLine.MatchString(l) {
			out.Skip(n, "no_evidence:log_line")
			return nil
		}
		e := timeline.Event{TurnType: timeline.System, SourceLine: n, TimeBasis: timeline.TimeNone}
		if m := leadingTime.FindStringSubmatch(l); m != nil {
			ts := m[1]
			zoned := strings.HasSuffix(ts, "Z") || strings.LastIndexAny(ts, "+-") > 10
			if t, ok := parseTime(strings.Replace(ts, " ", "T", 1)); ok {
				e.Time, e.TimeBasis = t, timeline.TimeRecorded
				if !zoned {
					e.TimeBasis = timeline.TimeLocalAsUTC
				}
				l = l[len(m[0]):]
			}
		}
		e.Text = "sign-in: " + tokenLike.ReplaceAllString(strings.TrimSpace(l), "[redacted]")
		out.Event(e)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

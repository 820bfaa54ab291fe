package grok

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// update is one updates.jsonl line: an ACP session/update notification
// with the time Grok Build logged it (epoch seconds, a fraction allowed).
type update struct {
	Timestamp *float64 `json:"timestamp"`
	Params    *struct {
		Update *struct {
			SessionUpdate string      `json:"sessionUpdate"`
			PromptID      string      `json:"prompt_id"`
			Usage         *usageBlock `json:"usage"`
		} `json:"update"`
	} `json:"params"`
}

// usageBlock is a turn's accounting: flat counters, or one block per
// model under modelUsage (then the flat ones are not the turn's: each
// model's block is).
type usageBlock struct {
	usageCounts
	ModelUsage map[string]usageCounts `json:"modelUsage"`
}

type usageCounts struct {
	InputTokens      *int64          `json:"inputTokens"`
	CachedReadTokens *int64          `json:"cachedReadTokens"`
	OutputTokens     *int64          `json:"outputTokens"`
	ReasoningTokens  *int64          `json:"reasoningTokens"`
	CostUsdTicks     json.RawMessage `json:"costUsdTicks"`
}

// parseUpdates reads the accounting of updates.jsonl: each update that
// carries usage is a dated system row; every other update is a Skip
// counted by its kind (the turns it streams are chat_history.jsonl's).
func parseUpdates(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := where(in.Path)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	seen := map[string]int64{}
	return parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var u update
		if err := json.Unmarshal(b, &u); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if u.Params == nil || u.Params.Update == nil {
			out.Report(n, parser.KindSkippedRecord, "an updates.jsonl line with no params.update")
			return nil
		}
		up := u.Params.Update
		if up.Usage == nil {
			kind := up.SessionUpdate
			if kind == "" {
				kind = "untyped"
			}
			out.Skip(n, "session_update:"+kind)
			return nil
		}
		e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: n, TurnType: timeline.System, TimeBasis: timeline.TimeNone}
		if u.Timestamp != nil {
			if t, ok := epochSeconds(*u.Timestamp); ok {
				e.Time, e.TimeBasis = t, timeline.TimeRecorded
			}
		}
		e.Text = usageText(up.PromptID, up.Usage)
		if up.PromptID != "" {
			if first, ok := seen[up.PromptID]; ok {
				e.Text += " (re-emitted: the turn was first reported at line " + strconv.FormatInt(first, 10) + "; both are kept)"
			} else {
				seen[up.PromptID] = n
			}
		}
		if len(up.Usage.ModelUsage) == 1 {
			for m := range up.Usage.ModelUsage {
				e.Model = m
			}
		}
		out.Event(e)
		return nil
	})
}

// epochSeconds is a fractional epoch-seconds time to the millisecond.
func epochSeconds(f float64) (time.Time, bool) {
	if f <= 0 || math.IsNaN(f) || math.IsInf(f, 0) || f > 1e11 {
		return time.Time{}, false
	}
	return parser.Epoch(int64(math.Round(f*1000)), 0)
}

// usageText names every counter the update recorded, per model in name
// order; a counter it did not record is left out, never taken for zero.
func usageText(promptID string, u *usageBlock) string {
	var b strings.Builder
	b.WriteString("token usage")
	if promptID != "" {
		b.WriteString(" of turn " + promptID)
	}
	b.WriteString(":")
	if len(u.ModelUsage) == 0 {
		b.WriteString(counts(u.usageCounts))
		return b.String()
	}
	models := make([]string, 0, len(u.ModelUsage))
	for m := range u.ModelUsage {
		models = append(models, m)
	}
	sort.Strings(models)
	for i, m := range models {
		if i > 0 {
			b.WriteString(";")
		}
		b.WriteString(" " + m + ":" + counts(u.ModelUsage[m]))
	}
	return b.String()
}

func counts(c usageCounts) string {
	var parts []string
	add := func(name string, v *int64) {
		if v != nil {
			parts = append(parts, name+" "+strconv.FormatInt(*v, 10))
		}
	}
	add("input", c.InputTokens)
	add("cache read", c.CachedReadTokens)
	add("output", c.OutputTokens)
	add("reasoning", c.ReasoningTokens)
	if len(c.CostUsdTicks) > 0 && string(c.CostUsdTicks) != "null" {
		parts = append(parts, "cost "+costText(string(c.CostUsdTicks)))
	}
	if len(parts) == 0 {
		return " no counters"
	}
	return " " + strings.Join(parts, ", ")
}

// costText is costUsdTicks (1e-10 US dollars each) in dollars, exact: the
// ticks' digits with the decimal point moved, never a float.
func costText(raw string) string {
	if n, err := strconv.ParseUint(raw, 10, 64); err == nil {
		s := fmt.Sprintf("%011d", n)
		whole, frac := s[:len(s)-10], strings.TrimRight(s[len(s)-10:], "0")
		if frac == "" {
			return "$" + whole
		}
		return "$" + whole + "." + frac
	}
	return "not read (costUsdTicks " + raw + ")"
}

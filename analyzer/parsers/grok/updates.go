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

// parseUpdates reads updates.jsonl twice. The first read learns which
// events a rewind_marker cut off; the second writes: each update that
// carries usage as a dated system row; each event a rewind cut off (a
// prompt, a reply, reasoning, a tool call or its completion, which
// chat_history.jsonl no longer holds: the rewind rewrote it) as its row
// at its own time, and at the marker a system row saying what was
// rewound; every other update a Skip counted by its kind (its turn is
// chat_history.jsonl's).
func parseUpdates(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := where(in.Path)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	first := &replay{}
	err = readReplay(ctx, rc, discard{}, first, nil)
	rc.Close()
	if err != nil {
		return err
	}
	dead := map[int64]int64{}   // first line of a cut item -> the marker's line
	cut := map[int64][2]int64{} // marker line -> first and last line it cut
	for _, it := range first.items {
		if it.deadBy == 0 {
			continue
		}
		dead[it.line] = it.deadBy
		span, ok := cut[it.deadBy]
		if !ok || it.line < span[0] {
			span[0] = it.line
		}
		if it.line > span[1] {
			span[1] = it.line
		}
		cut[it.deadBy] = span
	}
	marks := map[int64]rewind{}
	for _, rw := range first.rewinds {
		marks[rw.line] = rw
	}
	rc, err = in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	base := timeline.Event{SessionID: sid, ProjectPath: project, TimeBasis: timeline.TimeNone}
	r := &replay{
		keep: func(n int64) bool { _, ok := dead[n]; return ok },
		done: func(it *item) {
			if _, ok := dead[it.line]; ok {
				rewoundRow(out, base, it)
			}
		},
	}
	seen := map[string]int64{}
	return readReplay(ctx, rc, out, r, func(n int64, u *update, err error) {
		if err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return
		}
		if u.Params == nil || u.Params.Update == nil {
			out.Report(n, parser.KindSkippedRecord, "an updates.jsonl line with no params.update")
			return
		}
		up := u.Params.Update
		if rw, ok := marks[n]; ok {
			rewindRow(out, base, rw, cut[n])
			return
		}
		if up.SessionUpdate == "compaction_checkpoint" {
			compactionRow(out, base, n, u, up)
			return
		}
		if up.Usage == nil {
			if _, ok := dead[n]; ok {
				return // its row is written when the event is read whole
			}
			kind := up.SessionUpdate
			if kind == "" {
				kind = "untyped"
			}
			out.Skip(n, "session_update:"+kind)
			return
		}
		e := base
		e.SourceLine, e.TurnType = n, timeline.System
		if t, ok := u.when(); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
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
	})
}

// rewoundRow writes an event a rewind cut off, at its own time.
func rewoundRow(out parser.Sink, base timeline.Event, it *item) {
	e := base
	e.SourceLine = it.line
	if !it.t.IsZero() {
		e.Time, e.TimeBasis = it.t, timeline.TimeRecorded
	}
	switch it.kind {
	case kPrompt:
		e.TurnType, e.Text = timeline.User, it.text
	case kHost:
		e.TurnType, e.Text = timeline.System, "host turn, not typed: "+it.text
	case kMessage:
		e.TurnType, e.Text = timeline.Assistant, it.text
	case kThought:
		e.TurnType, e.Text = timeline.Thinking, it.text
	case kCall:
		e.TurnType, e.ToolName, e.ToolUseID, e.ToolInput = timeline.ToolUse, it.title, it.id, it.input
		e.Text = callText(it.title, it.input)
	case kResult:
		e.TurnType, e.ToolUseID, e.Text = timeline.ToolResult, it.id, it.text
		e.IsError = strconv.FormatBool(it.status == "failed")
	}
	if e.Text == "" && e.TurnType != timeline.ToolResult {
		out.Skip(it.line, "no_evidence:empty_rewound_"+string(e.TurnType))
		return
	}
	out.Event(e)
}

// compactionRow is the system row at a compaction_checkpoint
// (CompactionCheckpointInfo): Grok replaced chat_history.jsonl with the
// compacted history here, so the turns before it are in this file only
// (counted as Skips above it) and in compaction_checkpoints/ (not
// collected); an auto-compaction's continue prompt is Grok's, not typed.
func compactionRow(out parser.Sink, base timeline.Event, n int64, u *update, up *updateBody) {
	e := base
	e.SourceLine, e.TurnType = n, timeline.System
	if t, ok := parser.ParseTime(up.CreatedAt); ok {
		e.Time, e.TimeBasis = t, timeline.TimeRecorded
	} else if t, ok := u.when(); ok {
		e.Time, e.TimeBasis = t, timeline.TimeRecorded
	}
	var d []string
	if up.CheckpointID != "" {
		d = append(d, "checkpoint "+up.CheckpointID)
	}
	if up.PromptIndexAtCompr != nil {
		d = append(d, "at prompt "+strconv.Itoa(*up.PromptIndexAtCompr))
	}
	if up.CheckpointFile != "" {
		d = append(d, "compacted history in "+up.CheckpointFile+" (not collected)")
	}
	e.Text = "conversation compacted"
	if len(d) > 0 {
		e.Text += " (" + strings.Join(d, "; ") + ")"
	}
	e.Text += ": chat_history.jsonl was replaced by the compacted history here"
	if n > 1 {
		e.Text += fmt.Sprintf("; the turns before it are in updates.jsonl lines 1-%d (counted, not written as rows)", n-1)
	}
	if up.AutoContinue != nil && up.AutoContinue.PromptText != "" {
		e.Text += "; auto-continue prompt injected, not typed: " + up.AutoContinue.PromptText
	}
	out.Event(e)
}

// rewindRow is the system row at a rewind_marker: what it cut off.
func rewindRow(out parser.Sink, base timeline.Event, rw rewind, span [2]int64) {
	e := base
	e.SourceLine, e.TurnType = rw.line, timeline.System
	at := rw.createdAt
	if t, ok := parser.ParseTime(rw.createdAt); ok {
		e.Time, e.TimeBasis = t, timeline.TimeRecorded
	} else if !rw.t.IsZero() {
		e.Time, e.TimeBasis = rw.t, timeline.TimeRecorded
	}
	if at == "" {
		at = "-"
	}
	switch {
	case rw.target < 0:
		e.Text = "rewind marker without a target prompt at " + at + ": nothing cut"
	case rw.cut == 0:
		e.Text = fmt.Sprintf("rewound by /rewind at %s: 0 record(s) (back to prompt %d, which the live timeline never reached)", at, rw.target)
	default:
		e.Text = fmt.Sprintf("rewound by /rewind at %s: %d record(s), back to before prompt %d (updates.jsonl lines %d-%d, kept as rows; chat_history.jsonl no longer holds them)", at, rw.cut, rw.target, span[0], span[1])
	}
	out.Event(e)
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

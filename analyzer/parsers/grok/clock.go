package grok

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// clock dates chat_history.jsonl's rows from the updates.jsonl of the same
// session folder. A row takes an update's time only when the update names
// it: a tool call or completion by its call id; a typed prompt by its
// exact text (and its prompt_index when both files record one), the next
// such prompt of the live timeline after the last row matched, never one a
// rewind cut off; a reply or reasoning by its exact text, within the same
// turn (after the turn's matched prompt, before the next prompt). Nothing
// is dated by nearness.
type clock struct {
	items   []item
	bySum   map[[sha256.Size]byte][]int
	calls   map[string]int
	results map[string]int
	prompts []int // indices of the live prompt items
	cursor  int
}

// readClock reads the updates.jsonl beside a chat_history.jsonl; nil
// when it is not collected or cannot be read.
func readClock(ctx context.Context, in *parser.Input) (*clock, error) {
	rc, err := in.OpenRelated(path.Join(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")), "updates.jsonl"))
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := &replay{}
	if err := readReplay(ctx, rc, discard{}, r, nil); err != nil {
		return nil, err
	}
	c := &clock{items: r.items, bySum: map[[sha256.Size]byte][]int{}, calls: map[string]int{}, results: map[string]int{}}
	for i := range c.items {
		it := &c.items[i]
		switch it.kind {
		case kPrompt, kMessage, kThought:
			if it.deadBy != 0 {
				continue
			}
			c.bySum[it.sum] = append(c.bySum[it.sum], i)
			if it.kind == kPrompt {
				c.prompts = append(c.prompts, i)
			}
		case kCall:
			if _, ok := c.calls[it.id]; !ok && it.id != "" {
				c.calls[it.id] = i
			}
		case kResult:
			if _, ok := c.results[it.id]; !ok && it.id != "" {
				c.results[it.id] = i
			}
		}
	}
	return c, nil
}

// discard is the sink of the clock's read: the updates.jsonl parser
// reports that file's problems; the clock only reads its times.
type discard struct{}

func (discard) Event(timeline.Event)          {}
func (discard) Session(timeline.SessionState) {}
func (discard) Problem(int64, string)         {}
func (discard) Report(int64, string, string)  {}
func (discard) Skip(int64, string)            {}

// date gives a row its time when an update names it.
func (c *clock) date(e *timeline.Event, promptIndex *int) {
	if c == nil {
		return
	}
	idx := -1
	switch e.TurnType {
	case timeline.ToolUse:
		if i, ok := c.calls[e.ToolUseID]; ok && e.ToolUseID != "" {
			idx = i
		}
	case timeline.ToolResult:
		if i, ok := c.results[e.ToolUseID]; ok && e.ToolUseID != "" {
			idx = i
		}
	case timeline.User:
		idx = c.find(kPrompt, e.Text, promptIndex, len(c.items))
	case timeline.Assistant:
		idx = c.find(kMessage, e.Text, nil, c.nextPrompt())
	case timeline.Thinking:
		idx = c.find(kThought, e.Text, nil, c.nextPrompt())
	}
	if idx < 0 {
		return
	}
	if idx+1 > c.cursor {
		c.cursor = idx + 1
	}
	if t := c.items[idx].t; !t.IsZero() {
		e.Time, e.TimeBasis = t, timeline.TimeAnchored
	}
}

// nextPrompt is the index of the first live prompt at or after the cursor
// (the end of the current turn), or len(items).
func (c *clock) nextPrompt() int {
	k := sort.SearchInts(c.prompts, c.cursor)
	if k < len(c.prompts) {
		return c.prompts[k]
	}
	return len(c.items)
}

// find is the first live item of the kind with the text, at or after the
// cursor and before end; -1 when there is none.
func (c *clock) find(kind itemKind, text string, pi *int, end int) int {
	cands := c.bySum[sha256.Sum256([]byte(strings.TrimSpace(text)))]
	k := sort.SearchInts(cands, c.cursor)
	for ; k < len(cands) && cands[k] < end; k++ {
		it := &c.items[cands[k]]
		if it.kind != kind {
			continue
		}
		if pi != nil && it.pi >= 0 && it.pi != *pi {
			continue
		}
		return cands[k]
	}
	return -1
}

// undated counts the rows left without a time, by turn type.
type undated struct {
	n, of int
	by    map[timeline.TurnType]int
}

func (u *undated) add(e *timeline.Event) {
	u.of++
	if e.TimeBasis != timeline.TimeNone {
		return
	}
	u.n++
	if u.by == nil {
		u.by = map[timeline.TurnType]int{}
	}
	u.by[e.TurnType]++
}

func (u *undated) String() string {
	types := make([]string, 0, len(u.by))
	for t := range u.by {
		types = append(types, string(t))
	}
	sort.Strings(types)
	var parts []string
	for _, t := range types {
		parts = append(parts, fmt.Sprintf("%s %d", t, u.by[timeline.TurnType(t)]))
	}
	return strings.Join(parts, ", ")
}

// report writes the count of undated rows as one undated_rows problem.
func (u *undated) report(out parser.Sink, why string) {
	if u.n == 0 {
		return
	}
	out.Report(0, parser.KindUndatedRows, fmt.Sprintf("%d of %d rows undated (%s): %s", u.n, u.of, u.String(), why))
}

package kimiwire

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestUsageEvent: a StatusUpdate's counters as the wire holds them, and
// only those (no max, no usage, no message id: left out, not guessed).
func TestUsageEvent(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		id       string
		hasUsage bool
		u        [4]int64
		ctx, max *int64
		want     string
	}{
		{"m1", true, [4]int64{5000, 120, 30, 210}, n(5210), n(262144), "token usage of step m1: input 5000 (cache read 120, cache creation 30), output 210; context 5210 of 262144 tokens"},
		{"", true, [4]int64{7, 0, 0, 3}, nil, nil, "token usage: input 7 (cache read 0, cache creation 0), output 3"},
		{"m2", false, [4]int64{}, n(900), nil, "token usage of step m2: context 900 tokens"},
	} {
		e := usageEvent(timeline.Event{TurnType: timeline.System}, c.id, c.hasUsage, c.u, c.ctx, c.max)
		if e.Text != c.want || e.TurnType != timeline.System || e.RecordID != "" {
			t.Errorf("usageEvent(%q): got %q (%s, %q), want %q", c.id, e.Text, e.TurnType, e.RecordID, c.want)
		}
	}
}

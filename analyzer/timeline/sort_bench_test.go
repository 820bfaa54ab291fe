package timeline_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// BenchmarkSorter adds events in a shuffled time order and reads them back
// sorted, in memory and with spilled runs (a small memory limit).
func BenchmarkSorter(b *testing.B) {
	const n = 100000
	evs := make([]timeline.Event, n)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	text := strings.Repeat("some assistant text ", 20)
	for i := range evs {
		j := (i * 7919) % n
		evs[i] = timeline.Event{Time: base.Add(time.Duration(j) * time.Second), Host: "h", User: "u", Agent: "claude-code",
			SessionID: fmt.Sprintf("s%04d", j%1000), TurnType: timeline.Assistant, Text: text,
			SourceFile: "/home/u/.claude/projects/-home-u-demo/x.jsonl", SourceLine: int64(i), Seq: int64(i)}
	}
	for _, c := range []struct {
		name string
		mem  int64
	}{{"in-memory", 1 << 30}, {"spilled", 4 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := timeline.NewSorter(b.TempDir(), c.mem)
				for i := range evs {
					if err := s.Add(evs[i]); err != nil {
						b.Fatal(err)
					}
				}
				got := 0
				if err := s.Each(func(*timeline.Event) error { got++; return nil }); err != nil {
					b.Fatal(err)
				}
				if got != n {
					b.Fatalf("got %d events", got)
				}
			}
			b.ReportMetric(float64(n), "events/op")
		})
	}
}

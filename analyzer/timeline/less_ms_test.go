package timeline

import (
	"testing"
	"time"
)

// TestLessHostWithinAMillisecond: rows of two hosts in one millisecond are
// ordered by host, whatever their finer times (merge, which sees only the
// milliseconds, orders them so: a merge of shards is byte for byte one
// run); one host's rows in one millisecond keep their finer order, and
// rows a millisecond apart are ordered by time whatever their hosts.
// Before, fixture-host-pl's file-mtime row at .356900 came after
// fixture-host-2's at .356100 in one run and before it in the merge.
func TestLessHostWithinAMillisecond(t *testing.T) {
	at := func(ns int) time.Time { return time.Date(2026, 12, 3, 14, 25, 25, ns, time.UTC) }
	b2 := &Event{Time: at(356_100_000), Host: "fixture-host-2", SourceFile: "/z"}
	pl := &Event{Time: at(356_000_001), Host: "fixture-host-pl", SourceFile: "/a"}
	b2late := &Event{Time: at(356_900_000), Host: "fixture-host-2", SourceFile: "/a"}
	next := &Event{Time: at(357_000_000), Host: "a", SourceFile: "/a"}
	for _, c := range []struct {
		name string
		a, b *Event
		want bool
	}{
		{"host before finer time", b2late, pl, true},
		{"host before finer time, reversed", pl, b2late, false},
		{"one host: finer time", b2, b2late, true},
		{"one host: finer time, reversed", b2late, b2, false},
		{"a millisecond apart: time", pl, next, true},
		{"a millisecond apart, reversed", next, pl, false},
	} {
		if got := Less(c.a, c.b); got != c.want {
			t.Errorf("%s: Less = %v, want %v", c.name, got, c.want)
		}
	}
}

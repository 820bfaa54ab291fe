package parser

import (
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestSQLEpoch: seconds and milliseconds read as UTC times recorded; NULL,
// other text and zero are no time.
func TestSQLEpoch(t *testing.T) {
	for _, c := range []struct {
		v     any
		want  string
		basis timeline.TimeBasis
	}{
		{int64(1764633600), "2025-12-02T00:00:00Z", timeline.TimeRecorded},
		{int64(1764633600123), "2025-12-02T00:00:00.123Z", timeline.TimeRecorded},
		{nil, "0001-01-01T00:00:00Z", timeline.TimeNone},
		{"1764633600", "2025-12-02T00:00:00Z", timeline.TimeRecorded}, // digits in a text column, as SQLInt reads them
		{"yesterday", "0001-01-01T00:00:00Z", timeline.TimeNone},
		{int64(0), "0001-01-01T00:00:00Z", timeline.TimeNone},
	} {
		got, b := SQLEpoch(c.v)
		if got.Format(time.RFC3339Nano) != c.want || b != c.basis {
			t.Errorf("SQLEpoch(%#v) = %s %q, want %s %q", c.v, got.Format(time.RFC3339Nano), b, c.want, c.basis)
		}
	}
}

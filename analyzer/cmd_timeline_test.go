package main

import (
	"testing"
	"time"
)

// TestParseWhen: a time without a zone is UTC, as the help says; a date
// is its day's start, or with end its last nanosecond; a zone is
// converted to UTC; anything else is refused.
func TestParseWhen(t *testing.T) {
	for _, c := range []struct {
		in   string
		end  bool
		want string
	}{
		{"2026-11-29T18:20:00", false, "2026-11-29T18:20:00Z"},
		{"2026-11-29T18:20:00.25", false, "2026-11-29T18:20:00.25Z"},
		{"2026-11-29 18:20:00", false, "2026-11-29T18:20:00Z"},
		{"2026-11-29T18:20", true, "2026-11-29T18:20:00Z"},
		{"2026-11-29", false, "2026-11-29T00:00:00Z"},
		{"2026-11-29", true, "2026-11-29T23:59:59.999999999Z"},
		{"2026-11-29T18:20:00+02:00", false, "2026-11-29T16:20:00Z"},
		{"2026-11-29T18:20:00Z", false, "2026-11-29T18:20:00Z"},
	} {
		got, err := parseWhen(c.in, c.end)
		if err != nil || got.Location() != time.UTC || got.Format(time.RFC3339Nano) != c.want {
			t.Errorf("parseWhen(%q, %v) = %v, %v; want %s UTC", c.in, c.end, got, err, c.want)
		}
	}
	for _, bad := range []string{"yesterday", "2026-11-29T25:00:00", "29/11/2026", "2026-11-29T18:20:00 CET"} {
		if _, err := parseWhen(bad, false); err == nil {
			t.Errorf("parseWhen(%q) accepted", bad)
		}
	}
}

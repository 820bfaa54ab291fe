package parser

import (
	"testing"
	"time"
)

// One test per epoch unit: each value is the same instant,
// 2026-11-30T17:55:24.568123456Z, written in the unit's own size, and is
// read in that unit whatever the agent's seconds/milliseconds threshold.
func TestEpochUnits(t *testing.T) {
	want := time.Date(2026, 11, 30, 17, 55, 24, 568123456, time.UTC)
	for _, c := range []struct {
		name string
		v    int64
		unit string
		want time.Time
	}{
		{"seconds", 1796061324, UnitSeconds, want.Truncate(time.Second)},
		{"milliseconds", 1796061324568, UnitMillis, want.Truncate(time.Millisecond)},
		{"microseconds", 1796061324568123, UnitMicros, want.Truncate(time.Microsecond)},
		{"nanoseconds", 1796061324568123456, UnitNanos, want},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, msAbove := range []int64{1e10, 1e11, 1e12} {
				got, unit, ok := EpochUnit(c.v, msAbove)
				if !ok || unit != c.unit || !got.Equal(c.want) || got.Location() != time.UTC {
					t.Errorf("EpochUnit(%d, %d) = %v %q %v; want %v %q", c.v, msAbove, got, unit, ok, c.want, c.unit)
				}
				if g, ok := Epoch(c.v, msAbove); !ok || !g.Equal(c.want) {
					t.Errorf("Epoch(%d, %d) = %v %v", c.v, msAbove, g, ok)
				}
			}
		})
	}
	// The edges: each threshold is the last value of the smaller unit.
	for _, c := range []struct {
		v    int64
		unit string
	}{
		{1e11, UnitSeconds}, {1e11 + 1, UnitMillis}, {1e14, UnitMillis}, {1e14 + 1, UnitMicros},
		{1e17, UnitMicros}, {1e17 + 1, UnitNanos}, {1<<63 - 1, UnitNanos},
	} {
		if _, unit, ok := EpochUnit(c.v, 1e11); !ok || unit != c.unit {
			t.Errorf("EpochUnit(%d) unit %q, want %q", c.v, unit, c.unit)
		}
	}
	for _, v := range []int64{0, -1, -1796061324568} {
		if _, ok := Epoch(v, 1e11); ok {
			t.Errorf("Epoch(%d) is a time", v)
		}
	}
}

func TestPlausible(t *testing.T) {
	ref := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for s, want := range map[string]bool{
		"0000-01-01T00:00:00Z":           false, // year 0 (Python and Timesketch cannot read it)
		"9999-12-31T23:59:59.999Z":       false,
		"1970-01-01T00:00:00Z":           false, // epoch 0 written as a time
		"1989-12-31T23:59:59.999Z":       false,
		"1990-01-01T00:00:00Z":           true, // the floor itself
		"2026-11-29T17:55:24.568Z":       true,
		"2026-12-02T20:00:00Z":           true, // one day after the collection
		"2026-12-02T20:00:00.001Z":       false,
		"2026-12-02T21:00:00+01:00":      true, // the same instant with an offset
		"2099-01-01T00:00:00Z":           false,
		"2026-12-01T20:00:00.000000001Z": true,
	} {
		if got := Plausible(at(s), ref); got != want {
			t.Errorf("Plausible(%s) = %v, want %v", s, got, want)
		}
	}
	if !Plausible(time.Time{}, ref) {
		t.Error("the zero time is no time, not an implausible one")
	}
}

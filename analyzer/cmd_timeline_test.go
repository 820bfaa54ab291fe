package main

import (
	"os"
	"path/filepath"
	"strings"
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

// TestTimelineNoUsableInput: every input unusable is exit 2, naming it,
// with the outputs written (their names on the written line).
func TestTimelineNoUsableInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad_doubleagent.tar.zst")
	if err := os.WriteFile(bad, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	msg, code := runCLI(t, "timeline", bad, "-o", out)
	if code != 2 || !strings.Contains(msg, "inputs: 0 read, 1 unusable\n") || !strings.Contains(msg, "written: "+filepath.Join(out, "timeline.jsonl")) ||
		!strings.Contains(msg, "doubleagent: no usable input: "+bad+": does not start with a zstd frame") {
		t.Fatalf("exit %d: %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(out, "run.json")); err != nil {
		t.Fatal(err)
	}
}

package bundle

import "testing"

func TestParseSize(t *testing.T) {
	good := map[string]int64{
		"0": 0, "65536": 65536, "1K": 1024, "1k": 1024, "100M": 100 << 20, "100MB": 100 << 20,
		"64MiB": 64 << 20, "1G": 1 << 30, "2GiB": 2 << 30, " 8KiB ": 8 << 10, "268435456": 268435456,
	}
	for in, want := range good {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "-1", "1T", "1.5M", "abc", "4611686018427387905", "4294967297G"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

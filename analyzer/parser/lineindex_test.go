package parser

import "testing"

func TestLineIndex(t *testing.T) {
	l := NewLineIndex([]byte("{\n  \"a\": [\n    1,\n\n    2\n  ]\n}"))
	for _, c := range []struct{ off, line int64 }{{0, 1}, {1, 1}, {2, 2}, {14, 3}, {21, 5}, {-5, 1}, {1 << 20, 7}, {3, 2}} {
		if got := l.At(c.off); got != c.line {
			t.Errorf("At(%d) = %d, want %d", c.off, got, c.line)
		}
	}
}

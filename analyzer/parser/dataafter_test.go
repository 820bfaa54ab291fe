package parser

import (
	"strings"
	"testing"
)

// TestDataAfterJSON: whitespace and NUL padding after the value are
// nothing; anything else is named with the byte where it starts, counted
// across the decoder's buffer and the rest of the file.
func TestDataAfterJSON(t *testing.T) {
	for _, c := range []struct {
		buffered, rest string
		offset         int64
		want           string
	}{
		{"", "", 10, ""},
		{" \n\t\r", "\x00\x00\n", 10, ""},
		{"\n", `{"x":1}`, 10, "data after the JSON value (from byte 11) not read: a second value or junk after its end (a rewrite cut or racing another)"},
		{"  ]", "", 0, "data after the JSON value (from byte 2) not read: a second value or junk after its end (a rewrite cut or racing another)"},
		{strings.Repeat(" ", 5000), "x", 7, "data after the JSON value (from byte 5007) not read: a second value or junk after its end (a rewrite cut or racing another)"},
	} {
		if got := DataAfterJSON(strings.NewReader(c.buffered), strings.NewReader(c.rest), c.offset); got != c.want {
			t.Errorf("DataAfterJSON(%q, %q, %d) = %q, want %q", c.buffered, c.rest, c.offset, got, c.want)
		}
	}
}

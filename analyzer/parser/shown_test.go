package parser

import (
	"strings"
	"testing"
)

func TestShown(t *testing.T) {
	long := strings.Repeat("a", 199) + "é" + "tail"
	for _, c := range []struct{ in, want string }{
		{"conv-1", "conv-1"},
		{"ünïcode id", "ünïcode id"},
		{"", `""`},
		{"\x00\xff{\"", `"\x00\xff{\""`},
		{"a\nb\tc", `"a\nb\tc"`},
		{"\x1b[31mred", `"\x1b[31mred"`},
		{strings.Repeat("x", 200), strings.Repeat("x", 200)},
		{strings.Repeat("x", 201), strings.Repeat("x", 200) + " ... (201 bytes in all)"},
		{long, strings.Repeat("a", 199) + " ... (205 bytes in all)"},
		{strings.Repeat("\x00", 300), `"` + strings.Repeat(`\x00`, 200) + `" ... (300 bytes in all)`},
	} {
		if got := Shown(c.in); got != c.want {
			t.Errorf("Shown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

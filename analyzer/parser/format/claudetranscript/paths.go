package claudetranscript

import (
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// parseTime reads an RFC 3339 time as UTC; zero when empty or unreadable.
func parseTime(s string) time.Time {
	t, _ := parser.ParseTime(s)
	return t
}

// dirOf returns the '/'-separated parent of p.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// baseOf returns the last '/'-separated element of p.
func baseOf(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

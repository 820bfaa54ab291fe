package claudecode

import (
	"bytes"
	json "github.com/go-json-experiment/json/v1"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// Agent is the catalog name of Claude Code.
const Agent = "claude-code"

// Parsers returns the Claude Code parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		Transcript(),
		History(),
		Settings(),
		LegacyHistory(),
		LastSession(),
		Sessions(),
		Remote(),
		Todos(),
		FileHistory(),
	}
}

// parseTime reads an ISO-8601 time with an offset or "Z"; zero when empty or
// unreadable.
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// epochMillis reads a JSON number or numeric string of epoch milliseconds
// (history.jsonl's timestamp), or an RFC 3339 string. A number of another
// size is read in the unit its size says (parser.Epoch: seconds, µs, ns),
// never as milliseconds of another century.
func epochMillis(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}
	}
	s := strings.Trim(string(raw), `"`)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		t, _ := parser.Epoch(int64(f), 1e11)
		return t
	}
	return parseTime(s)
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

// maxPersisted bounds how much of a pasted or persisted text is read (as
// the transcript reader bounds a persisted tool output).
const maxPersisted = 64 << 20

// orDash returns s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

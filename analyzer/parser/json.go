package parser

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"

	json "github.com/go-json-experiment/json/v1"
)

// CompactJSON renders raw JSON from a record (a tool call's arguments, a
// nested value) as compact JSON text: the form of a row's tool_input, and
// of values quoted in system rows. One behaviour for every parser:
//
//   - absent, blank or null: "";
//   - valid JSON: compacted, its strings unchanged (no HTML escaping);
//   - anything else (a cut-off or hand-edited value, arguments an agent
//     stored as non-JSON text): the raw text, trimmed, as one JSON string
//     ("\"{\\\"cmd\\\": \\\"ls\""), so tool_input is always valid JSON
//     and nothing is lost. Bytes that are not UTF-8 become U+FFFD.
func CompactJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err == nil {
		return b.String()
	}
	return JSONValue(string(raw))
}

// JSONValue renders a decoded value as compact JSON text under the same
// rules as CompactJSON (no HTML escaping); "" for nil.
func JSONValue(v any) string {
	if v == nil {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return ""
	}
	return strings.TrimRight(b.String(), "\n")
}

// JSONString returns the value of raw when it is a JSON string.
func JSONString(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if s, ok := plainJSONString(raw); ok {
		return s, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// plainJSONString is JSONString without a decoder for the common string:
// raw is one string literal with no escape, no control character and
// valid UTF-8, whose text is its bytes between the quotes (any other goes
// to json.Unmarshal; FuzzJSONString compares the two).
func plainJSONString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c == '"' || c == '\\' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

// StringValue is JSONString's value alone: "" when raw is not a JSON string.
func StringValue(raw []byte) string {
	s, _ := JSONString(raw)
	return s
}

// JSONText renders a JSON value as text: a string as its value, absent or
// null as "", anything else as CompactJSON.
func JSONText(raw []byte) string {
	if s, ok := JSONString(raw); ok {
		return s
	}
	return CompactJSON(raw)
}

// ParseTime reads an RFC 3339 time (with or without fractional seconds
// and zone offset) as UTC; false for "" and anything else.
func ParseTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// Epoch reads an integer epoch time in the unit its size says: seconds up
// to msAbove (each agent's own threshold; 1e11 where the agent states
// none: seconds below it run to the year 5138, milliseconds above it
// start in 1973), milliseconds up to 1e14 (the year 5138 again),
// microseconds up to 1e17, nanoseconds above (int64 nanoseconds end in
// 2262). Each unit's range starts where the one before ends, so a value
// is read in the one unit that puts it after 1973 (the µs and ns of
// SQLite stores and Go's time.UnixNano are read, not taken for
// milliseconds of the year 55 000). Zero and negative values are no time.
// The result is not checked against the plausible window: the engine
// does that for every row (see Plausible).
func Epoch(v, msAbove int64) (time.Time, bool) {
	t, _, ok := EpochUnit(v, msAbove)
	return t, ok
}

// Epoch units, as EpochUnit reports them.
const (
	UnitSeconds = "s"
	UnitMillis  = "ms"
	UnitMicros  = "us"
	UnitNanos   = "ns"
)

// EpochUnit is Epoch with the unit it chose.
func EpochUnit(v, msAbove int64) (time.Time, string, bool) {
	switch {
	case v <= 0:
		return time.Time{}, "", false
	case v > 1e17:
		return time.Unix(0, v).UTC(), UnitNanos, true
	case v > 1e14:
		return time.UnixMicro(v).UTC(), UnitMicros, true
	case v > msAbove:
		return time.UnixMilli(v).UTC(), UnitMillis, true
	default:
		return time.Unix(v, 0).UTC(), UnitSeconds, true
	}
}

// TimeFloor is the start of the plausible window: no coding agent, and
// hardly a file system an examiner meets, wrote a time before 1990.
var TimeFloor = time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)

// PlausibleSlack is how far past the collection (or, with no collection
// time, the run) a time may lie and still be plausible: a clock a little
// ahead, a collection that ran for hours, the time zones between the host
// and the examiner.
const PlausibleSlack = 24 * time.Hour

// Plausible reports whether t lies in the plausible window: from
// TimeFloor to PlausibleSlack after ref (the collection time; the run's
// time when there is none). A time outside it (0000-01-01, 9999-12-31, a
// clock set to 1970 or to 2099, a misread unit) is kept as recorded but
// marked (time_basis "implausible", a problem row), and never lent to a
// later row. The zero time is no time, and plausible.
func Plausible(t, ref time.Time) bool {
	if t.IsZero() {
		return true
	}
	return !t.Before(TimeFloor) && !t.After(ref.Add(PlausibleSlack))
}

// ObjectMembers calls fn for each member of the JSON object raw, in file
// order (a map would lose the order, and with it a settings row's line):
// the shape of trusted-folder, routes and settings files. It returns an
// error for input that is not one JSON object; the members before a cut
// are still given to fn.
func ObjectMembers(raw []byte, fn func(key string, value json.RawMessage)) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return ErrNotObject
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		fn(k, v)
	}
	_, err = dec.Token()
	return err
}

type jsonError string

func (e jsonError) Error() string { return string(e) }

// ErrNotObject and ErrNotArray say that JSON decoded to another kind of
// value than the object (array) expected. NotJSONObject and NotJSONArray
// add no detail for them.
const (
	ErrNotObject = jsonError("not a JSON object")
	ErrNotArray  = jsonError("not a JSON array")
)

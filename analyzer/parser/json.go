package parser

import (
	"bytes"
	"strings"

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

package parser

import "testing"

func TestCompactJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"  \n", ""},
		{"null", ""},
		{" null ", ""},
		{`{ "command": "ls -la",  "n": [1, 2] }`, `{"command":"ls -la","n":[1,2]}`},
		{`{"html": "<a href='x'>&</a>"}`, `{"html":"<a href='x'>&</a>"}`},
		{`"a string"`, `"a string"`},
		{`42`, `42`},
		// Not JSON: the raw text as one JSON string, never bare.
		{`{"command": "ls`, `"{\"command\": \"ls"`},
		{` ls -la <dir> & `, `"ls -la <dir> &"`},
		{"tab\there\x00", `"tab\there\u0000"`},
		{"bad \xff utf8 {", "\"bad \ufffd utf8 {\""},
	} {
		if got := CompactJSON([]byte(c.in)); got != c.want {
			t.Errorf("CompactJSON(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestJSONValue(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, ""},
		{map[string]any{"b": 1.5, "a": "<x>"}, `{"a":"<x>","b":1.5}`},
		{[]any{"x", true}, `["x",true]`},
		{"s", `"s"`},
	} {
		if got := JSONValue(c.in); got != c.want {
			t.Errorf("JSONValue(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

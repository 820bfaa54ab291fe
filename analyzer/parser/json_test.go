package parser

import (
	"bytes"
	"strings"
	"testing"

	json "github.com/go-json-experiment/json/v1"
)

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

func TestObjectMembers(t *testing.T) {
	var got []string
	err := ObjectMembers([]byte(`{"b": 1, "a": {"x": [1,2]}, "c": "s"}`), func(k string, v json.RawMessage) {
		got = append(got, k+"="+string(v))
	})
	if err != nil || strings.Join(got, " ") != `b=1 a={"x": [1,2]} c="s"` {
		t.Fatalf("members %q err %v", got, err)
	}
	got = nil
	err = ObjectMembers([]byte(`{"a": 1, "b": `), func(k string, v json.RawMessage) { got = append(got, k) })
	if err == nil || strings.Join(got, " ") != "a" {
		t.Fatalf("cut object: members %q err %v", got, err)
	}
	if err := ObjectMembers([]byte(`[1]`), func(string, json.RawMessage) {}); err == nil || err.Error() != "not a JSON object" {
		t.Fatalf("array: err %v", err)
	}
}

// jsonStringRef is JSONString as it was, with json.Unmarshal alone.
func jsonStringRef(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// FuzzJSONString: JSONString's fast path for a plain string gives what
// json.Unmarshal gives, on any bytes.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{`"plain"`, `""`, `"a"b"`, `"a" "b"`, `"tab` + "\t" + `"`, "\"\xff\"", `"é"`, ` "x" `, `"x`, `"\n"`, `"a"x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, gok := JSONString(b)
		want, wok := jsonStringRef(b)
		if got != want || gok != wok {
			t.Fatalf("JSONString(%q) = %q, %v; json.Unmarshal: %q, %v", b, got, gok, want, wok)
		}
	})
}

package parser

import (
	encjson "encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
)

// TestJSONErrorPlainWords: every decoder the parsers use, on the nastiest
// inputs (a type mismatch deep in a struct, a map of structs, a cut, a
// control character in a string), gives a detail in plain words that
// never names a Go type or a decoder package.
func TestJSONErrorPlainWords(t *testing.T) {
	type inner struct {
		Text string `json:"text"`
	}
	type rec struct {
		Messages []inner `json:"messages"`
		N        int     `json:"n"`
	}
	v1 := func(in string, v any) error { return json.Unmarshal([]byte(in), v) }
	std := func(in string, v any) error { return encjson.Unmarshal([]byte(in), v) }
	v2 := func(in string, v any) error { return jsonv2.Unmarshal([]byte(in), v) }
	var r rec
	var m map[string]inner
	var sl []string
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"v1 string into struct", v1(`"x"`, &r), "expected an object, found a string"},
		{"v1 field", v1(`{"messages":[{"text":5}]}`, &r), "expected a string at messages.0.text, found a number"},
		{"v1 map of structs", v1(`[1]`, &m), "expected an object, found an array"},
		{"v1 int", v1(`{"n":"x"}`, &r), "expected an integer at n, found a string"},
		{"v1 cut", v1(`{"n":`, &r), "unexpected end of JSON input"},
		{"v1 syntax", v1(`{"n":nul}`, &r), "invalid character '}' in literal null (expecting 'l')"},
		{"std string into slice", std(`"x"`, &sl), "expected an array, found a string"},
		{"std field", std(`{"n":true}`, &r), "expected an integer at n, found true or false"},
		{"std cut", std(`[`, &sl), "unexpected end of JSON input"},
		{"v2 kind", v2(`{"n":"x"}`, &r), "expected an integer at n, found a string"},
		{"eof", io.EOF, "unexpected end of JSON input"},
		{"unexpected eof wrapped", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), "unexpected end of JSON input"},
		{"unknown decoder", fmt.Errorf("json: cannot unmarshal x into Go value of type foo.Bar"), "a value of another shape than the format has there"},
		{"nil", nil, ""},
	}
	dec := jsontext.NewDecoder(strings.NewReader("\"a\nb\""))
	_, err := dec.ReadValue()
	cases = append(cases, struct {
		name string
		err  error
		want string
	}{"jsontext control char", err, `invalid character '\n' in string (expecting non-control character)`})
	for _, c := range cases {
		got := JSONError(c.err)
		if got != c.want {
			t.Errorf("%s: JSONError(%v) = %q, want %q", c.name, c.err, got, c.want)
		}
		if strings.Contains(got, "Go ") || strings.Contains(got, "json:") || strings.Contains(got, "jsontext") {
			t.Errorf("%s: %q names the decoder or a Go type", c.name, got)
		}
	}
}

func TestWordings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{BadJSONLine(nil), "malformed JSON line (cut short or corrupt), skipped"},
		{BadJSONLine(io.ErrUnexpectedEOF), "malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input"},
		{BadJSONLine(json.Unmarshal([]byte(`[1]`), new(struct{ A int }))), "JSON line is not a record of this format, skipped: expected an object, found an array"},
		{BadJSONLine(ErrNotObject), "JSON line is not a record of this format, skipped"},
		{NotJSON("", io.EOF), "not valid JSON: unexpected end of JSON input"},
		{NotJSON("thread data", nil), "thread data is not valid JSON"},
		{NotJSONObject("", ErrNotObject), "not a JSON object"},
		{NotJSONObject("step", json.Unmarshal([]byte(`[]`), new(map[string]any))), "step is not a JSON object: expected an object, found an array"},
		{NotJSONArray("ui_messages.json", nil), "ui_messages.json is not a JSON array"},
		{NotJSONArray("", ErrNotArray), "not a JSON array"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

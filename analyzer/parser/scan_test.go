package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTopFields(t *testing.T) {
	line := `{"type":"api-request-shape","uuid":"u\"1","n":12,"ok":true,"nested":{"a":[1,{"b":"}]"}],"c":"\\"},"s":"x\\\\"}`
	var got []string
	if !TopFields([]byte(line), func(k, v []byte) bool { got = append(got, string(k)+"="+string(v)); return true }) {
		t.Fatal("well-formed line rejected")
	}
	want := `type="api-request-shape" uuid="u\"1" n=12 ok=true nested={"a":[1,{"b":"}]"}],"c":"\\"} s="x\\\\"`
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, bad := range []string{`{"a":"open`, `{"a":{"b":1}`, `{"a" 1}`, `{"a":1 "b":2}`, `[1]`, `{"a":1}x`, `{"a":}`, ``} {
		if TopFields([]byte(bad), func(k, v []byte) bool { return true }) {
			t.Errorf("%q accepted", bad)
		}
	}
	if s, ok := RawString([]byte(`"plain"`)); !ok || s != "plain" {
		t.Fatal("RawString plain")
	}
	if _, ok := RawString([]byte(`"esc\n"`)); ok {
		t.Fatal("RawString must refuse an escape")
	}
}

func BenchmarkTopFields(b *testing.B) {
	line := []byte(`{"type":"api-request-shape","uuid":"u1","shape":"` + strings.Repeat(`abc \"q\" `, 20000) + `"}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		TopFields(line, func(k, v []byte) bool { return true })
	}
}

// stringEndRef is the byte-at-a-time definition stringEnd must agree with.
func stringEndRef(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// FuzzStringEnd: stringEnd agrees with the bytewise reference on any bytes.
func FuzzStringEnd(f *testing.F) {
	f.Add([]byte(`"a\"b\\"c"`))
	f.Add([]byte(`"` + strings.Repeat(`\"`, 100) + `x"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		b = append([]byte{'"'}, b...)
		if got, want := stringEnd(b, 0), stringEndRef(b, 0); got != want {
			t.Fatalf("%q: %d, want %d", b, got, want)
		}
	})
}

// stringEnd against a byte-at-a-time reference on the nastiest runs of
// backslashes before a quote (even and odd, at the start, at the end, the
// string left open), every prefix of each case.
func TestStringEndBackslashRuns(t *testing.T) {
	ref := stringEndRef
	cases := []string{`""`, `"a"`, `"\""`, `"\\"`, `"\\\""`, `"\\\\"`, `"\\\\\"x"`, `"a\"b\\"c"`, `"\`, `"\\`, `"\"`, `"x\\\\\\\\\"\\"rest"`,
		`"` + strings.Repeat(`\\`, 1000) + `"`, `"` + strings.Repeat(`\\`, 999) + `\""`, `"\u0022\\u005c"`}
	for _, c := range cases {
		for n := 1; n <= len(c); n++ {
			b := []byte("xx" + c[:n] + `,"z"`)
			if got, want := stringEnd(b, 2), ref(b, 2); got != want {
				t.Errorf("%q: %d, want %d", b, got, want)
			}
		}
	}
}

// BenchmarkTopFieldsEscapedText: a long string of prose written with \n
// escapes and a few quoted words, as a prompt or a tool output is.
func BenchmarkTopFieldsEscapedText(b *testing.B) {
	line := []byte(`{"type":"attachment","attachment":{"type":"prompt_snapshot","text":"` + strings.Repeat(`a line of text in a long prompt, then a new line\n`, 4000) +
		strings.Repeat(`and a \"quoted\" word\n`, 20) + `"}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		TopFields(line, func(k, v []byte) bool { return true })
	}
}

// realTranscriptLines returns the lines of the real-agent fixture's Claude
// Code transcripts (2.1.332), or skips when the fixture is not there.
func realTranscriptLines(b *testing.B) [][]byte {
	b.Helper()
	dir, _ := os.Getwd()
	for range 8 {
		files, _ := filepath.Glob(filepath.Join(dir, "fixtures", "roots", "real-agents", "home", "examiner", ".claude", "projects", "*", "*.jsonl"))
		if len(files) > 0 {
			var lines [][]byte
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					b.Fatal(err)
				}
				lines = append(lines, bytes.Split(bytes.TrimSpace(data), []byte("\n"))...)
			}
			return lines
		}
		dir = filepath.Dir(dir)
	}
	b.Skip("real-agent fixture root not found")
	return nil
}

// BenchmarkTopFieldsReal: every top-level member of every line of the
// real-agent fixture's Claude Code transcripts (tool schemas, prompt
// snapshots, messages), the walk lightRecord does before it knows a
// record's kind.
func BenchmarkTopFieldsReal(b *testing.B) {
	lines := realTranscriptLines(b)
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			if !TopFields(l, func(k, v []byte) bool { return true }) {
				b.Fatalf("line rejected: %.80s", l)
			}
		}
	}
}

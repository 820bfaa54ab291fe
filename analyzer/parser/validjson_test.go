package parser

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// validRef is what ValidJSON must agree with: the decoder the parsers use,
// with the v1 options.
func validRef(b []byte) bool { return jsontext.Value(b).IsValid(jsonv1.DefaultOptionsV1()) }

func TestValidJSON(t *testing.T) {
	good := []string{`0`, `-0`, `12`, `-1.5e+3`, `1E9`, `0.25`, `true`, `false`, `null`, `""`, `"a\"b\\c\/\b\f\n\r\t\u00e9\uD83D"`,
		"\"\xff\xfe\"", `[]`, `{}`, ` [1, "x", {"a": [true, null]}] `, `{"a":1,"a":2}`, "{\"k\"\t:\r\n1}",
		strings.Repeat("[", 64) + strings.Repeat("]", 64)}
	bad := []string{``, ` `, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `tru`, `nul`, `truex`, `"open`, `"a\x"`, `"\u12g4"`, `"\u12"`,
		"\"tab\there\"", `[1,]`, `[1 2]`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{a:1}`, `{"a":1}x`, `[`, `]`, `{"a":1}{}`, `1 2`, "\x00",
		strings.Repeat("[", 65) + strings.Repeat("]", 65)}
	for _, s := range good {
		if !ValidJSON([]byte(s)) {
			t.Errorf("ValidJSON(%q) = false, want true", s)
		}
		if !validRef([]byte(s)) {
			t.Errorf("the decoder refuses %q: the case is wrong", s)
		}
	}
	for _, s := range bad {
		if ValidJSON([]byte(s)) {
			t.Errorf("ValidJSON(%q) = true, want false", s)
		}
		if validRef([]byte(s)) && !strings.HasPrefix(s, "[[") {
			t.Errorf("the decoder takes %q: the case is wrong", s)
		}
	}
}

// FuzzValidJSON: ValidJSON never takes what the decoder refuses, and takes
// everything it accepts that nests no deeper than maxValidDepth.
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x\u0041",true,null,{}]}`, `"\\\""`, `-0.0E-0`, "\"\xc3\x28\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, want := ValidJSON(b), validRef(b)
		if got && !want {
			t.Fatalf("ValidJSON(%q) = true, the decoder refuses it", b)
		}
		if !got && want && strings.Count(string(b), "[")+strings.Count(string(b), "{") <= maxValidDepth {
			t.Fatalf("ValidJSON(%q) = false, the decoder accepts it", b)
		}
	})
}

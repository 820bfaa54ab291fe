package parser

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
)

// TestReadString: ReadString gives the text jsontext.Token.String and
// json.Unmarshal (v1 options) give, escapes, surrogate pairs and invalid
// UTF-8 included.
func TestReadString(t *testing.T) {
	for _, lit := range []string{
		`""`, `"plain ascii"`, `"tab\tnew\nline \"q\" \\ \/"`, `"\u00e9\u4e2d\ud83d\ude00"`, `"\ud800 lone"`,
		"\"bad \xff\xfe bytes\"", "\"cut \xe2\x82 rune\"", "\"caf\xc3\xa9 ok\"", "\"\xff\"", `"` + strings.Repeat(`x\n`, 1<<16) + `"`,
		"\"\xff" + strings.Repeat(`\u0041`, 100) + "\"",
	} {
		opts := json.DefaultOptionsV1()
		d1 := jsontext.NewDecoder(bytes.NewBufferString(lit), opts)
		got, err := ReadString(d1)
		if err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		d2 := jsontext.NewDecoder(bytes.NewBufferString(lit), opts)
		tok, err := d2.ReadToken()
		if err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		if got != want || got != tok.String() {
			t.Errorf("%.60q: ReadString %.60q, Unmarshal %.60q, Token.String %.60q", lit, got, want, tok.String())
		}
	}
}

package outputs

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// mactimeDecode is mactime's tm_split for one field:
// s/%([A-F0-9][A-F0-9])/pack("C", hex($1))/egis.
var pctRe = regexp.MustCompile(`(?i)%([0-9a-f]{2})`)

func mactimeDecode(s string) string {
	return pctRe.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[1:], 16, 8)
		return string([]byte{byte(n)})
	})
}

// FuzzBodyField: any name becomes one bodyfile field (no "|", no line
// ending or other control, valid UTF-8) that mactime decodes back to the
// name the JSON Lines timeline carries.
func FuzzBodyField(f *testing.F) {
	for _, s := range []string{"a|b", "a\nb|c\r", "100%", "%7C", "%zz%", "\xff\xed\xa0\x80", "\x00\x7f", "é🎉"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := bodyField(s)
		if strings.ContainsRune(b, '|') || !utf8.ValidString(b) || strings.IndexFunc(b, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			t.Fatalf("bodyField(%q) = %q", s, b)
		}
		if got := mactimeDecode(b); got != timeline.ValidUTF8(s) {
			t.Fatalf("mactime reads %q back as %q, want %q", s, got, timeline.ValidUTF8(s))
		}
	})
}

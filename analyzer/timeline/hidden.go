package timeline

import (
	"fmt"
	"strings"
)

// IsHidden reports whether r is a character a reader of the text does not
// see: a Unicode tag character (U+E0000-U+E007F), a zero-width character
// (U+200B-U+200F, U+2060-U+2064) or a bidi control (U+202A-U+202E,
// U+2066-U+2069, the Arabic letter mark U+061C). A byte-order mark (U+FEFF) is not among them. The
// hidden-Unicode rule matches these; the reports and the terminal show
// them as <U+XXXX> (Reveal).
func IsHidden(r rune) bool {
	return r >= 0xE0000 && r <= 0xE007F || r >= 0x200B && r <= 0x200F || r >= 0x202A && r <= 0x202E ||
		r >= 0x2060 && r <= 0x2064 || r >= 0x2066 && r <= 0x2069 || r == 0x061C
}

// mustReveal is a character a report or terminal writes as <U+XXXX>: a C1
// control (U+0080-U+009F: 0x9B is a terminal's CSI) or a hidden character
// (IsHidden), except a zero-width joiner between two visible non-ASCII
// characters (an emoji sequence such as a family or a flag).
func mustReveal(s string, i int, r rune) bool {
	if r >= 0x80 && r <= 0x9f {
		return true
	}
	if !IsHidden(r) {
		return false
	}
	if r == 0x200D {
		prev, next := lastRune(s[:i]), firstRune(s[i+3:])
		return !(prev >= 0x80 && !IsHidden(prev) && next >= 0x80 && !IsHidden(next))
	}
	return true
}

// Reveal is s with every C1 control and hidden character (see IsHidden;
// a zero-width joiner inside an emoji sequence is kept) written as
// <U+XXXX>, so that a bidi override cannot reorder what an examiner reads
// and an invisible instruction is seen. s must be valid UTF-8
// (ValidUTF8); C0 controls are left to the caller, which knows whether a
// newline or a tab is wanted.
func Reveal(s string) string {
	if !needsReveal(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range s {
		if mustReveal(s, i, r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func needsReveal(s string) bool {
	for i, r := range s {
		if r >= 0x80 && mustReveal(s, i, r) {
			return true
		}
	}
	return false
}

func lastRune(s string) rune {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xc0 {
			for _, r := range s[i:] {
				return r
			}
		}
	}
	return 0
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

package parser

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// ShownMax is the most bytes of a value Shown prints before cutting it.
const ShownMax = 200

// Shown renders a value read from a store (an id, a type, a key: a SQLite
// cell may hold a blob of any bytes) for a problem message, so that
// problems.jsonl and the report never carry raw binary or control bytes.
// Printable UTF-8 text of at most ShownMax bytes is returned as is, so an
// ordinary id reads as before. Anything else is Go-quoted ("\x00\xff{\"":
// invalid UTF-8 and control bytes escaped, quotes and backslashes escaped);
// a value over ShownMax bytes is cut at a character boundary and the cut is
// noted with the value's length ("... (1234 bytes in all)").
func Shown(s string) string {
	cut := ""
	if len(s) > ShownMax {
		cut = " ... (" + strconv.Itoa(len(s)) + " bytes in all)"
		n := ShownMax
		for n > ShownMax-utf8.UTFMax && n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	if s == "" {
		return `""` + cut
	}
	if plainText(s) {
		return s + cut
	}
	return strconv.Quote(s) + cut
}

// plainText reports whether s is valid UTF-8 of printable characters only
// (spaces included, no control characters).
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

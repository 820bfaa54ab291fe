package parser

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// ReadString reads the JSON string value next in dec and returns its
// text, as jsontext.Token.String would, but with one copy of the text
// instead of two: Token.String unquotes into a buffer and then copies the
// buffer into the string, so a 60 MB tool output was held three times
// (the line, the buffer, the string) while it was decoded. Escapes are
// decoded and invalid UTF-8 becomes U+FFFD, as with the v1 options
// (AllowInvalidUTF8). The next value must be a string (PeekKind '"').
func ReadString(dec *jsontext.Decoder) (string, error) {
	v, err := dec.ReadValue()
	if err != nil {
		return "", err
	}
	return unquote(v), nil
}

// unquote returns the text of v, a JSON string literal the decoder has
// validated.
func unquote(v []byte) string {
	body := v[1 : len(v)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	// The text is never longer than the literal (an escape is at least as
	// long as what it stands for) except for U+FFFD, three bytes for each
	// bad byte.
	n := len(v)
	for i := 0; i < len(body); {
		r, w := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && w == 1 {
			n += 2
		}
		i += w
	}
	b, _ := jsontext.AppendUnquote(make([]byte, 0, n), v) // the only error is invalid UTF-8, replaced
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b)) // b is never written again
}

package parser

import (
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// WireString is one text field found in a protobuf message decoded
// without its schema: the field-number path from the top message
// ("3.1.2") and the text.
type WireString struct {
	Path string
	Text string
}

// Wire walk bounds: nesting depth, and strings collected per message.
const (
	maxWireDepth   = 32
	maxWireStrings = 4096
)

// WireStrings decodes b as a protobuf message with no schema
// (google.golang.org/protobuf/encoding/protowire) and returns its text
// fields in wire order. A length-delimited field that itself parses whole
// as a message with at least one field is descended into (a sub-message);
// otherwise it is text when it is valid UTF-8 and mostly printable, and is
// skipped as bytes when not. ok is false when b is not a well-formed
// message (the strings found before the fault are still returned).
func WireStrings(b []byte) (out []WireString, ok bool) {
	ok = wireWalk(b, "", 0, &out)
	return out, ok
}

func wireWalk(b []byte, prefix string, depth int, out *[]WireString) bool {
	if depth > maxWireDepth {
		return false
	}
	for len(b) > 0 {
		if len(*out) >= maxWireStrings {
			return true
		}
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		path := prefix + itoa(int(num))
		if typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return false
			}
			b = b[m:]
			if len(v) > 0 && isMessage(v, depth+1) {
				wireWalk(v, path+".", depth+1, out)
			} else if len(v) > 0 && wireText(v) {
				*out = append(*out, WireString{Path: path, Text: string(v)})
			}
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return false
		}
		b = b[m:]
	}
	return true
}

// isMessage reports whether b parses whole as a protobuf message. Text
// that happens to parse (short ASCII) is taken as text: a candidate whose
// bytes are all printable and that is not a run of valid nested tags of
// known wire types is not a message.
func isMessage(b []byte, depth int) bool {
	if depth > maxWireDepth {
		return false
	}
	if wireText(b) && allPrintableASCII(b) {
		return false
	}
	fields := 0
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num == 0 {
			return false
		}
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return false
		}
		if typ == protowire.StartGroupType || typ == protowire.EndGroupType {
			return false
		}
		b = b[m:]
		fields++
	}
	return fields > 0
}

func wireText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	printable, total := 0, 0
	for _, r := range string(b) {
		total++
		if unicode.IsPrint(r) || r == '\n' || r == '\t' || r == '\r' {
			printable++
		}
	}
	return total > 0 && printable*10 >= total*9
}

func allPrintableASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c > 0x7e {
			return false
		}
	}
	return true
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}

package windsurf

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// A schemaless reader of the protobuf wire format
// (https://protobuf.dev/programming-guides/encoding/) on
// google.golang.org/protobuf/encoding/protowire: a message is a run of
// fields, each a varint tag (field number << 3 | wire type) followed by a
// varint (type 0), 8 bytes (type 1), a varint length and that many bytes
// (type 2) or 4 bytes (type 5); protowire reads each piece, this file
// decides what a payload is and words the errors. Types 3 and 4 (groups, deprecated) are
// reported as unsupported; 6 and 7 do not exist. Without a schema a
// length-delimited payload is ambiguous: it is read as a nested message
// when it parses completely and plausibly, else as text when it is valid
// UTF-8 and mostly printable, else as opaque bytes.

// valueKind is how a field's value was read.
type valueKind uint8

const (
	kindVarint valueKind = iota
	kindFixed64
	kindFixed32
	kindMessage
	kindText
	kindBytes
)

const (
	// maxPlausibleField bounds the field numbers of a payload read as a
	// nested message: real schemas rarely go past a few thousand, while
	// random bytes that happen to parse produce large numbers.
	maxPlausibleField = 1 << 16
	// maxDepth bounds nesting (protobuf's own parsers stop at 100).
	maxDepth = 64
	// minTextRunes: a text field gives a row when it has at least this
	// many characters (shorter ones are enum-like codes and ids' pieces).
	minTextRunes = 4
)

// Plausible epoch range for timestamps: 2015-01-01 to 2036-01-01 UTC.
var (
	minEpoch = time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxEpoch = time.Date(2036, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

// wireField is one decoded field.
type wireField struct {
	Num  int
	Wire int
	Off  int // absolute offset of the field's tag in the file
	Kind valueKind
	// Val is the varint or fixed value.
	Val uint64
	// Data is a length-delimited payload (a slice of the file, not a copy).
	Data []byte
	// Sub are the fields of a payload read as a message.
	Sub []wireField
}

// wireError says where and why the wire format stopped.
type wireError struct {
	Off int
	Why string
}

func (e *wireError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Off, e.Why) }

// decoder carries the context check across the recursion.
type decoder struct {
	ctx   context.Context
	steps int
	err   error // ctx error, once seen
}

// varintErr names why a varint could not be read (n < 0 from protowire).
func varintErr(n int) string {
	if protowire.ParseError(n) == io.ErrUnexpectedEOF {
		return "truncated"
	}
	return "longer than 10 bytes"
}

// parse reads b (which starts at absolute offset base) as a run of fields.
// It returns the fields read before any error. nested marks an attempt to
// read a payload as a message, where field numbers above
// maxPlausibleField also fail.
func (d *decoder) parse(b []byte, base, depth int, nested bool) ([]wireField, *wireError) {
	var fields []wireField
	i := 0
	for i < len(b) {
		d.steps++
		if d.steps&0xfff == 0 && d.err == nil {
			d.err = d.ctx.Err()
		}
		if d.err != nil {
			return fields, &wireError{base + i, "stopped: " + d.err.Error()}
		}
		start := i
		tag, n := protowire.ConsumeVarint(b[i:])
		if n < 0 {
			if varintErr(n) == "truncated" {
				return fields, &wireError{base + start, "truncated field tag"}
			}
			return fields, &wireError{base + start, "field tag varint longer than 10 bytes"}
		}
		i += n
		num, wt := tag>>3, protowire.Type(tag&7)
		if num == 0 {
			return fields, &wireError{base + start, fmt.Sprintf("field number 0 (tag byte %#02x)", b[start])}
		}
		if num > uint64(protowire.MaxValidNumber) {
			return fields, &wireError{base + start, fmt.Sprintf("field number %d beyond the protobuf maximum", num)}
		}
		if nested && num > maxPlausibleField {
			return fields, &wireError{base + start, fmt.Sprintf("field number %d implausibly large", num)}
		}
		f := wireField{Num: int(num), Wire: int(wt), Off: base + start}
		switch wt {
		case protowire.VarintType:
			v, m := protowire.ConsumeVarint(b[i:])
			if m < 0 {
				return fields, &wireError{base + start, fmt.Sprintf("varint of field %d %s", num, varintErr(m))}
			}
			f.Kind, f.Val = kindVarint, v
			i += m
		case protowire.Fixed64Type:
			v, m := protowire.ConsumeFixed64(b[i:])
			if m < 0 {
				return fields, &wireError{base + start, fmt.Sprintf("64-bit field %d needs 8 bytes, %d left", num, len(b)-i)}
			}
			f.Kind, f.Val = kindFixed64, v
			i += m
		case protowire.Fixed32Type:
			v, m := protowire.ConsumeFixed32(b[i:])
			if m < 0 {
				return fields, &wireError{base + start, fmt.Sprintf("32-bit field %d needs 4 bytes, %d left", num, len(b)-i)}
			}
			f.Kind, f.Val = kindFixed32, uint64(v)
			i += m
		case protowire.BytesType:
			l, m := protowire.ConsumeVarint(b[i:])
			if m < 0 {
				return fields, &wireError{base + start, fmt.Sprintf("length varint of field %d %s", num, varintErr(m))}
			}
			i += m
			if l > uint64(len(b)-i) {
				return fields, &wireError{base + start, fmt.Sprintf("length-delimited field %d of %d bytes runs past the end (%d bytes left)", num, l, len(b)-i)}
			}
			f.Data = b[i : i+int(l)]
			d.classify(&f, base+i, depth)
			i += int(l)
		case protowire.StartGroupType, protowire.EndGroupType:
			return fields, &wireError{base + start, fmt.Sprintf("group wire type %d (field %d) is not supported", wt, num)}
		default:
			return fields, &wireError{base + start, fmt.Sprintf("invalid wire type %d (field %d)", wt, num)}
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// classify decides what a length-delimited payload is.
func (d *decoder) classify(f *wireField, base, depth int) {
	p := f.Data
	if len(p) > 0 && depth < maxDepth && !allPrintable(p) {
		sub, err := d.parse(p, base, depth+1, true)
		if err == nil && len(sub) > 0 {
			f.Kind, f.Sub = kindMessage, sub
			return
		}
	}
	if len(p) > 0 && isText(p) {
		f.Kind = kindText
		return
	}
	f.Kind = kindBytes
}

// printableRunes counts the runes of valid UTF-8 b and how many of them
// are printable (tab, newline and carriage return count as printable).
func printableRunes(b []byte) (printable, total int) {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		total++
		if unicode.IsPrint(r) || r == '\n' || r == '\r' || r == '\t' || unicode.IsSpace(r) {
			printable++
		}
	}
	return printable, total
}

// isText: valid UTF-8 with at least 90% printable characters.
func isText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	p, t := printableRunes(b)
	return t > 0 && p*10 >= t*9
}

// allPrintable: valid UTF-8 with no control character at all. Such a
// payload is kept as text even when it would also parse as a message (a
// string like "hi" is the varint field 13 = 105).
func allPrintable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	p, t := printableRunes(b)
	return t > 0 && p == t
}

// timestampOf reports whether f looks like a time: a
// google.protobuf.Timestamp-shaped message {1: seconds, 2: nanos} with
// seconds in the plausible range and nanos below 1e9 (and no other
// field), or a varint plausibly epoch seconds or milliseconds.
func timestampOf(f *wireField) (time.Time, bool) {
	switch f.Kind {
	case kindVarint:
		return epochOf(f.Val)
	case kindMessage:
		var secs, nanos uint64
		var haveSecs, haveNanos bool
		for i := range f.Sub {
			s := &f.Sub[i]
			switch {
			case s.Num == 1 && s.Kind == kindVarint && !haveSecs:
				secs, haveSecs = s.Val, true
			case s.Num == 2 && s.Kind == kindVarint && !haveNanos:
				nanos, haveNanos = s.Val, true
			default:
				return time.Time{}, false
			}
		}
		if !haveSecs || nanos >= 1e9 || secs > math.MaxInt64 {
			return time.Time{}, false
		}
		if int64(secs) < minEpoch || int64(secs) >= maxEpoch {
			return time.Time{}, false
		}
		return time.Unix(int64(secs), int64(nanos)).UTC(), true
	}
	return time.Time{}, false
}

// epochOf reads v as epoch seconds or milliseconds in the plausible range.
func epochOf(v uint64) (time.Time, bool) {
	if v > math.MaxInt64 {
		return time.Time{}, false
	}
	s := int64(v)
	switch {
	case s >= minEpoch && s < maxEpoch:
		return time.Unix(s, 0).UTC(), true
	case s >= minEpoch*1000 && s < maxEpoch*1000:
		return time.UnixMilli(s).UTC(), true
	}
	return time.Time{}, false
}

package sqlitecarve

import (
	"encoding/binary"
	"math"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// varint reads a SQLite varint (1 to 9 bytes, big-endian, high bit =
// more; the ninth byte gives all 8 bits) at b[0:]; n is 0 when b ends
// before the varint does.
func varint(b []byte) (v uint64, n int) {
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return v, 9
}

// varintLen is the number of bytes v takes as a SQLite varint.
func varintLen(v uint64) int {
	if v > 0x00ffffffffffffff {
		return 9
	}
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// serialSize is the body size of a serial type; ok is false for the
// reserved types 10 and 11.
func serialSize(t uint64) (int64, bool) {
	switch {
	case t <= 4:
		return [...]int64{0, 1, 2, 3, 4}[t], true
	case t == 5:
		return 6, true
	case t == 6, t == 7:
		return 8, true
	case t == 8, t == 9:
		return 0, true
	case t == 10, t == 11:
		return 0, false
	}
	if t > 1<<40 { // a 500 GB value: noise, not a record
		return 0, false
	}
	return int64(t-12) / 2, true
}

// affinity is a column's type affinity, from its declared type by the
// rules of SQLite's datatype3 document section 3.1.
type affinity int

const (
	affBlob affinity = iota // none declared, or BLOB
	affInteger
	affText
	affReal
	affNumeric
)

func affinityOf(decl string) affinity {
	d := strings.ToUpper(decl)
	switch {
	case strings.Contains(d, "INT"):
		return affInteger
	case strings.Contains(d, "CHAR"), strings.Contains(d, "CLOB"), strings.Contains(d, "TEXT"):
		return affText
	case d == "", strings.Contains(d, "BLOB"):
		return affBlob
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return affReal
	}
	return affNumeric
}

// fits reports whether a value of serial type t can be stored in a column
// of affinity a: SQLite converts on write, so an INTEGER column holds no
// text that reads as a number, a TEXT column no number. A NULL fits
// anywhere but the INTEGER PRIMARY KEY alias, which is always NULL in the
// record (its value is the rowid).
//
// strict (a record of a page whose table is not known) also refuses text
// in a numeric column and a blob in a text one, which SQLite allows but
// which would let one table's records read as another's.
func fits(a affinity, ipk bool, t uint64, strict bool) bool {
	if ipk {
		return t == 0
	}
	if t == 0 {
		return true
	}
	num := t <= 9
	text := t >= 13 && t%2 == 1
	switch a {
	case affInteger, affReal, affNumeric:
		if strict {
			return num
		}
		return num || text || t >= 12 // text that is not a number stays text; blobs stay blobs
	case affText:
		if strict {
			return text
		}
		return text || t >= 12 && t%2 == 0
	}
	return true
}

// decodeValue decodes one value of serial type t from b (exactly its
// size); enc is the database text encoding (1 UTF-8, 2 UTF-16le,
// 3 UTF-16be). Values are nil, int64, float64, string or []byte, as the
// database/sql driver gives them.
func decodeValue(t uint64, b []byte, enc uint32) any {
	switch {
	case t == 0:
		return nil
	case t >= 1 && t <= 6:
		var v int64
		if len(b) > 0 && b[0]&0x80 != 0 {
			v = -1
		}
		for _, c := range b {
			v = v<<8 | int64(c)
		}
		return v
	case t == 7:
		if len(b) < 8 {
			return nil
		}
		return math.Float64frombits(binary.BigEndian.Uint64(b))
	case t == 8:
		return int64(0)
	case t == 9:
		return int64(1)
	case t >= 12 && t%2 == 0:
		return append([]byte(nil), b...)
	}
	return decodeText(b, enc)
}

func decodeText(b []byte, enc uint32) string {
	if enc != 2 && enc != 3 {
		return string(b)
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		if enc == 2 {
			u[i] = binary.LittleEndian.Uint16(b[2*i:])
		} else {
			u[i] = binary.BigEndian.Uint16(b[2*i:])
		}
	}
	return string(utf16.Decode(u))
}

// textOK reports whether b reads as text in encoding enc: valid UTF-8
// without control characters other than tab, newline and carriage return
// (noise taken for a record fails here).
func textOK(b []byte, enc uint32) bool {
	if enc == 2 || enc == 3 {
		if len(b)%2 != 0 {
			return false
		}
		return textOKString(decodeText(b, enc))
	}
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

func textOKString(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

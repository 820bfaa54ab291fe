package windsurf

// A minimal protobuf wire encoder for building test inputs (the module
// does not depend on google.golang.org/protobuf). TestCanonicalBytes
// checks the decoder against the byte strings printed in the protobuf
// encoding guide, so encoder and decoder are not only checked against
// each other.

type pb []byte

func (b pb) varint(v uint64) pb {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func (b pb) tag(num, wt int) pb { return b.varint(uint64(num)<<3 | uint64(wt)) }

// Uint is a varint field.
func (b pb) Uint(num int, v uint64) pb { return b.tag(num, wireVarint).varint(v) }

// Bytes is a length-delimited field.
func (b pb) Bytes(num int, p []byte) pb {
	b = b.tag(num, wireBytes).varint(uint64(len(p)))
	return append(b, p...)
}

// Str is a string field.
func (b pb) Str(num int, s string) pb { return b.Bytes(num, []byte(s)) }

// Msg is a nested message field.
func (b pb) Msg(num int, m pb) pb { return b.Bytes(num, m) }

// Fixed64 and Fixed32 are fixed-width fields.
func (b pb) Fixed64(num int, v uint64) pb {
	b = b.tag(num, wireFixed64)
	for i := 0; i < 8; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func (b pb) Fixed32(num int, v uint32) pb {
	b = b.tag(num, wireFixed32)
	for i := 0; i < 4; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// Timestamp is a google.protobuf.Timestamp {1: seconds, 2: nanos}.
func Timestamp(secs, nanos uint64) pb {
	m := pb{}.Uint(1, secs)
	if nanos != 0 {
		m = m.Uint(2, nanos)
	}
	return m
}

package windsurf

import "google.golang.org/protobuf/encoding/protowire"

// Test inputs are built with protowire's encoder; TestCanonicalBytes also
// checks the decoder against the byte strings printed in the protobuf
// encoding guide.

type pb []byte

func (b pb) tag(num int, wt protowire.Type) pb {
	return protowire.AppendTag(b, protowire.Number(num), wt)
}

// Uint is a varint field.
func (b pb) Uint(num int, v uint64) pb {
	return protowire.AppendVarint(b.tag(num, protowire.VarintType), v)
}

// Bytes is a length-delimited field.
func (b pb) Bytes(num int, p []byte) pb {
	return protowire.AppendBytes(b.tag(num, protowire.BytesType), p)
}

// Str is a string field.
func (b pb) Str(num int, s string) pb { return b.Bytes(num, []byte(s)) }

// Msg is a nested message field.
func (b pb) Msg(num int, m pb) pb { return b.Bytes(num, m) }

// Fixed64 and Fixed32 are fixed-width fields.
func (b pb) Fixed64(num int, v uint64) pb {
	return protowire.AppendFixed64(b.tag(num, protowire.Fixed64Type), v)
}

func (b pb) Fixed32(num int, v uint32) pb {
	return protowire.AppendFixed32(b.tag(num, protowire.Fixed32Type), v)
}

// Timestamp is a google.protobuf.Timestamp {1: seconds, 2: nanos}.
func Timestamp(secs, nanos uint64) pb {
	m := pb{}.Uint(1, secs)
	if nanos != 0 {
		m = m.Uint(2, nanos)
	}
	return m
}

package parser

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func TestWireStrings(t *testing.T) {
	var inner []byte
	inner = protowire.AppendTag(inner, 1, protowire.BytesType)
	inner = protowire.AppendString(inner, "rm -rf build/")
	inner = protowire.AppendTag(inner, 3, protowire.VarintType)
	inner = protowire.AppendVarint(inner, 5)
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, "hello, world")
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, inner)
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte{0xff, 0x00, 0x81, 0x02})
	b = protowire.AppendTag(b, 5, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, 7)
	got, ok := WireStrings(b)
	if !ok || fmt.Sprint(got) != "[{1 hello, world} {2.1 rm -rf build/}]" {
		t.Fatalf("WireStrings = %v, %v", got, ok)
	}
	// a cut message: what came before the cut is kept, ok is false
	got, ok = WireStrings(b[:len(b)-3])
	if ok || len(got) != 2 {
		t.Fatalf("cut message: %v, %v", got, ok)
	}
	if got, ok := WireStrings(nil); !ok || len(got) != 0 {
		t.Fatalf("empty: %v %v", got, ok)
	}
	if _, ok := WireStrings([]byte("not protobuf at all, just text")); ok {
		t.Fatal("plain text parsed as a message")
	}
}

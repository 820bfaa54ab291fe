package parser

import (
	"strings"
	"testing"
)

func TestTopFields(t *testing.T) {
	line := `{"type":"api-request-shape","uuid":"u\"1","n":12,"ok":true,"nested":{"a":[1,{"b":"}]"}],"c":"\\"},"s":"x\\\\"}`
	var got []string
	if !TopFields([]byte(line), func(k, v []byte) bool { got = append(got, string(k)+"="+string(v)); return true }) {
		t.Fatal("well-formed line rejected")
	}
	want := `type="api-request-shape" uuid="u\"1" n=12 ok=true nested={"a":[1,{"b":"}]"}],"c":"\\"} s="x\\\\"`
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, bad := range []string{`{"a":"open`, `{"a":{"b":1}`, `{"a" 1}`, `{"a":1 "b":2}`, `[1]`, `{"a":1}x`, `{"a":}`, ``} {
		if TopFields([]byte(bad), func(k, v []byte) bool { return true }) {
			t.Errorf("%q accepted", bad)
		}
	}
	if s, ok := RawString([]byte(`"plain"`)); !ok || s != "plain" {
		t.Fatal("RawString plain")
	}
	if _, ok := RawString([]byte(`"esc\n"`)); ok {
		t.Fatal("RawString must refuse an escape")
	}
}

func BenchmarkTopFields(b *testing.B) {
	line := []byte(`{"type":"api-request-shape","uuid":"u1","shape":"` + strings.Repeat(`abc \"q\" `, 20000) + `"}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		TopFields(line, func(k, v []byte) bool { return true })
	}
}

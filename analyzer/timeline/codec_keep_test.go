package timeline

import (
	"strings"
	"testing"
	"time"
	"unsafe"
)

// within reports whether s's bytes lie inside the bytes of in.
func within(s, in string) bool {
	if len(s) == 0 || len(in) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(in)))
	return p >= lo && p < lo+uintptr(len(in))
}

// TestDecodedTextApart: a row read back from a spilled run keeps its text
// and tool_input in memory of their own, apart from its short fields, so a
// session id or host that outlives the row (the sessions' aggregator, a
// detector's key) does not keep the text reachable; owned decoding keeps
// the text in the record's memory and copies only the short fields.
func TestDecodedTextApart(t *testing.T) {
	e := Event{Time: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Host: "h", User: "u", Agent: "claude-code", SessionID: "s-1",
		TurnType: ToolUse, Model: "m", ToolName: "Bash", Text: strings.Repeat("t", 4096), ToolInput: `{"command":"ls"}`,
		SourceFile: "/x/y.jsonl", Parser: "p/q", RecordID: "r-1", Action: "execute", Provenance: "pv", Seq: 3}
	rec := AppendEventBinary(nil, &e)
	for _, owned := range []bool{false, true} {
		b := append([]byte(nil), rec...)
		var got Event
		if err := decodeEvent(b, &got, owned); err != nil {
			t.Fatal(err)
		}
		if got != e {
			t.Fatalf("owned=%v: decoded %+v, want %+v", owned, got, e)
		}
		long := unsafe.String(unsafe.StringData(got.Text), len(got.Text)+len(got.ToolInput))
		if long[len(got.Text):] != got.ToolInput {
			t.Fatalf("owned=%v: tool_input is not beside the text", owned)
		}
		for _, s := range []string{got.Host, got.User, got.Agent, got.SessionID, got.SourceFile, got.Parser, got.RecordID, string(got.Action), got.Provenance} {
			if within(s, long) {
				t.Errorf("owned=%v: %q shares the text's memory", owned, s)
			}
			if owned && within(s, unsafe.String(unsafe.SliceData(b), len(b))) {
				t.Errorf("owned: %q keeps the record's memory", s)
			}
		}
		if owned != within(got.Text, unsafe.String(unsafe.SliceData(b), len(b))) {
			t.Errorf("owned=%v: text in the record's memory: %v", owned, !owned)
		}
	}
	// A row with no text or tool_input decodes into one string.
	e.Text, e.ToolInput = "", ""
	var got Event
	if err := DecodeEventBinary(AppendEventBinary(nil, &e), &got); err != nil || got != e {
		t.Fatalf("no text: %v, %+v", err, got)
	}
}

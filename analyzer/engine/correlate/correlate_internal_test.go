package correlate

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestCorrelationCodecs: id stubs and pair rows survive a spill exactly.
func TestCorrelationCodecs(t *testing.T) {
	s := idStub{Host: "h", User: "u", Agent: "a", RecordID: "r", Content: [16]byte{1, 2, 15: 9}, Secondary: true, Time: -5, SourceFile: "/f", BundleID: "b", SessionID: "s", SourceLine: 3, Seq: 4, Ord: 5}
	var s2 idStub
	if err := idCodec.Decode(idCodec.Append(nil, &s), &s2); err != nil || s2 != s {
		t.Fatalf("%v %+v", err, s2)
	}
	for _, p := range []pairRow{
		{Host: "h", User: "u", Agent: "a", TurnType: "user", Text: "x", Time: 9, SessionID: "s", Primary: true, Ord: 3},
		{Host: "h", TurnType: "user", Text: "y", Ord: 4, Ev: timeline.Event{Text: "y", SourceLine: 2, Secondary: true}},
	} {
		var q pairRow
		b := pairCodec.Append(nil, &p)
		if err := pairCodec.Decode(b, &q); err != nil || q != p {
			t.Fatalf("%v %+v", err, q)
		}
		for i := range b {
			_ = pairCodec.Decode(b[:i], &q)
		}
	}
}

package windsurf

import (
	"context"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// FuzzWireDecode: any bytes decode without a panic, and an error offset
// lies inside the input.
func FuzzWireDecode(f *testing.F) {
	for _, c := range pbCases() {
		f.Add(c.data)
	}
	f.Add([]byte{0x08, 0x96, 0x01, 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &decoder{ctx: context.Background()}
		fs, err := d.parse(b, 0, 0, false)
		if err != nil && (err.Off < 0 || err.Off >= len(b)) {
			t.Fatalf("error offset %d outside %d bytes", err.Off, len(b))
		}
		var st pbStats
		st.count(fs)
		w := &pbRows{ctx: context.Background(), out: discard{}}
		w.walk(fs, "")
	})
}

type discard struct{}

func (discard) Event(timeline.Event)          {}
func (discard) Session(timeline.SessionState) {}
func (discard) Problem(int64, string)         {}
func (discard) Report(int64, string, string)  {}
func (discard) Skip(int64, string)            {}

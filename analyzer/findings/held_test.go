package findings

import (
	"fmt"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestScanRateHoldsLastMinute: what ScanRate holds is bounded by the last
// minute's calls: a call that is not a scanner is held without its row, a
// scanner call as a copy (kept), and the window of
// a session a minute past its last call is dropped, in timeline order.
func TestScanRateHoldsLastMinute(t *testing.T) {
	d := NewScanRate()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	for s := 0; n < 3*sweepEvery; s++ {
		for i := 0; i < 4; i++ { // one session every 2 minutes, 4 calls each
			ts := t0.Add(time.Duration(s)*2*time.Minute + time.Duration(i)*time.Second).Format("2006-01-02T15:04:05.000Z")
			text := "ls -la"
			if i == 3 {
				text = "nmap -p 22 10.0.0.1"
			}
			n++
			d.Row(int64(n), &timeline.Row{Host: "h", User: "u", Agent: "a", SessionID: fmt.Sprint("s", s), TurnType: "tool_use",
				Action: "execute", ToolName: "Bash", Text: text, ToolInput: `{"command":"` + text + `"}`, TimestampUTC: ts}, nil)
		}
	}
	if len(d.win) > sweepEvery/4+1 {
		t.Errorf("%d session windows held after %d calls, want at most %d", len(d.win), n, sweepEvery/4+1)
	}
	for k, w := range d.win {
		for _, c := range w {
			switch {
			case !c.scanner && c.ref.Row != nil:
				t.Fatalf("%v: a call that is not a scanner holds its row", k)
			case c.scanner && (c.ref.Row == nil || c.ref.Row.Text != "nmap -p 22 10.0.0.1" || c.ref.Row.ToolInput != `{"command":"nmap -p 22 10.0.0.1"}` || c.ref.Row.SessionID != k.session):
				t.Fatalf("%v: a scanner call held as %+v", k, c.ref)
			}
		}
	}
}

// TestHeadlessBypassHoldsCopies: every session's first prompt is held as
// a copy of what a finding lists (keep: no row, no session names of its
// own), not the row; the finding lists it as the row, hidden characters
// of its tool_input included.
func TestHeadlessBypassHoldsCopies(t *testing.T) {
	d := NewHeadlessBypass()
	rows := []*timeline.Row{
		{Host: "h", User: "u", Agent: "a", SessionID: "s", TurnType: "user", Text: "do the thing", RecordID: "r1", SourceFile: "/f", SourceLine: 1, TimestampUTC: "2026-01-01T00:00:00.000Z",
			ToolInput: "x\u200by", Model: "m", Parser: "p"},
		{Host: "h", User: "u", Agent: "a", SessionID: "s", TurnType: "system", Text: "session surface: sdk-cli", TimestampUTC: "2026-01-01T00:00:00.000Z"},
		{Host: "h", User: "u", Agent: "a", SessionID: "s", TurnType: "system", Text: "permission mode: bypassPermissions", TimestampUTC: "2026-01-01T00:00:00.000Z"},
	}
	for i, r := range rows {
		d.Row(int64(i+1), r, nil)
	}
	k := key{"", "h", "u", "a", "s"}
	h := d.sess[k]
	if h == nil || h.prompt == nil || h.prompt.line != 1 || h.prompt.text != "do the thing" || h.mode == nil || h.ran != nil {
		t.Fatalf("prompt held as %+v", h)
	}
	pr := h.prompt.ref(k)
	if pr.Row == rows[0] || pr.Row.Model != "" || pr.Row.Parser != "" || pr.Row.Host != "h" || pr.Row.SessionID != "s" {
		t.Fatalf("prompt given back as %+v", pr.Row)
	}
	if got, want := ref(1, pr.Row), ref(1, rows[0]); got != want || got.HiddenText == "" {
		t.Errorf("prompt listed as %+v, want %+v", got, want)
	}
	var got []string
	d.Finish(func(note string, refs ...Ref) {
		for _, x := range refs {
			got = append(got, fmt.Sprint(x.Line, " ", ref(x.Line, x.Row).Text))
		}
	})
	if fmt.Sprint(got) != "[2 session surface: sdk-cli 3 permission mode: bypassPermissions 1 do the thing]" {
		t.Errorf("reported %q", got)
	}
}

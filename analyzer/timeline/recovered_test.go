package timeline

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"time"
)

// TestRecoveredRowFields: a recovered row ends with its recovered and
// provenance fields; a live row has neither key, byte for byte the row
// schema 1-0-2 wrote; both survive the sorter's run codec, framed or not.
func TestRecoveredRowFields(t *testing.T) {
	at := time.Date(2026, 12, 1, 20, 26, 29, 675000000, time.UTC)
	rec := Event{Time: at, SessionID: "s", TurnType: User, Text: "hi", SourceLine: 3, RecordID: "prt_1",
		Recovered: "yes", Provenance: "WAL frame 7 of salt 1a2b3c4d/5e6f7a8b (earlier WAL generation), page 12 at offset 96", Seq: 4, Ord: 9}
	live := rec
	live.Recovered, live.Provenance = "", ""
	wantLive := `{"timestamp_utc":"2026-12-01T20:26:29.675Z","host":"","user":"","agent":"","session_id":"s","project_path":"","turn_type":"user","model":"","tool_name":"","tool_use_id":"","text":"hi","tool_input":"","is_error":"","source_file":"","source_line":3,"bundle_id":"","parser":"","secondary":"","time_basis":"","record_id":"prt_1","parent_session_id":"","verified":"","action":""}` + "\n"
	if got := string(AppendRow(nil, &live)); got != wantLive {
		t.Errorf("live row:\n%s", got)
	}
	wantRec := strings.TrimSuffix(wantLive, "}\n") + `,"recovered":"yes","provenance":"WAL frame 7 of salt 1a2b3c4d/5e6f7a8b (earlier WAL generation), page 12 at offset 96"}` + "\n"
	if got := string(AppendRow(nil, &rec)); got != wantRec {
		t.Errorf("recovered row:\n%s", got)
	}
	var enc bytes.Buffer
	if err := AppendJSON(&enc, rec.ToRow()); err != nil || enc.String() != wantRec {
		t.Errorf("encoder: %s %v", enc.String(), err)
	}
	if v := rec.ToRow().Values(); len(v) != len(Fields) || v[len(v)-2] != "yes" || v[len(v)-1] != rec.Provenance || Fields[len(Fields)-2] != "recovered" || Fields[len(Fields)-1] != "provenance" {
		t.Errorf("CSV values %q of fields %q", v, Fields)
	}
	var back Event
	if err := DecodeEventBinary(AppendEventBinary(nil, &rec), &back); err != nil || back != rec {
		t.Errorf("codec: %+v %v", back, err)
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := WriteEventFramed(w, &rec); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	n, k := binary.Uvarint(b.Bytes())
	framed := b.Bytes()[k:]
	if k <= 0 || int(n) != len(framed) {
		t.Fatalf("frame length %d of %d bytes", n, len(framed))
	}
	back = Event{}
	if err := DecodeEventBinary(framed, &back); err != nil || back != rec {
		t.Errorf("framed codec: %+v %v", back, err)
	}
}

// TestRecoveredSessions: a session whose every row was recovered (or only
// names it) reads recovered yes, one with live rows beside recovered ones
// partial, each with its count of recovered rows; a trace parser's
// recovered row (a carved thread record that only names the session) is
// counted but leaves the session a trace; a live session has no count.
func TestRecoveredSessions(t *testing.T) {
	a := NewAggregator()
	a.Trace = func(p string) bool { return p == "x/history" }
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	add := func(sid, parser, recovered string) {
		a.Add(&Event{Host: "h", User: "u", Agent: "a", SessionID: sid, Parser: parser, TurnType: User, Text: "t", Time: at, Recovered: recovered})
	}
	add("deleted", "x/db", "yes")
	add("deleted", "x/db", "partial")
	add("deleted", "x/history", "") // a prompt history line naming it
	add("lost-some", "x/db", "")
	add("lost-some", "x/db", "yes")
	add("live", "x/db", "")
	add("thread-only", "x/history", "yes")
	add("thread-only", "x/history", "")
	var got []string
	for _, s := range a.Sessions() {
		got = append(got, s.SessionID+"="+s.Recovered+"/"+string(rune('0'+s.RecoveredRows)))
	}
	if strings.Join(got, " ") != "deleted=yes/2 live=/0 lost-some=partial/1 thread-only=trace/1" {
		t.Errorf("sessions %v", got)
	}
	var b bytes.Buffer
	for _, s := range a.Sessions() {
		if err := AppendJSON(&b, s); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(b.String(), `"recovered_rows":`); n != 3 || !strings.Contains(b.String(), `"recovered":"yes","recovered_rows":2,"bundle_id"`) {
		t.Errorf("sessions.jsonl:\n%s", b.String())
	}
}

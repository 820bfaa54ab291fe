package timeline

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestSorterSpillsAndMerges: the same events come out in the same total
// order whether they stay in memory or are spilled to many runs.
func TestSorterSpillsAndMerges(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var evs []Event
	for i := 0; i < 500; i++ {
		e := Event{Time: base.Add(time.Duration((i*7919)%97) * time.Second), SourceFile: fmt.Sprintf("/f%d", i%5), SourceLine: int64(i % 13), Seq: int64(i), Text: fmt.Sprint("t", i)}
		if i%50 == 0 {
			e.Time = time.Time{} // undated rows sort last
		}
		evs = append(evs, e)
	}
	collect := func(limit int64) []string {
		s := NewSorter(t.TempDir(), limit)
		for _, e := range evs {
			if err := s.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		var out []string
		if err := s.Each(func(e *Event) error {
			out = append(out, e.TimeString()+"|"+e.Text)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	mem, spilled := collect(1<<30), collect(4096)
	if len(mem) != len(evs) || len(spilled) != len(evs) {
		t.Fatalf("lost events: %d in memory, %d spilled, of %d", len(mem), len(spilled), len(evs))
	}
	for i := range mem {
		if mem[i] != spilled[i] {
			t.Fatalf("row %d differs: %s vs %s", i, mem[i], spilled[i])
		}
		ti, tp := mem[i][:strings.IndexByte(mem[i], '|')], mem[max(i-1, 0)][:strings.IndexByte(mem[max(i-1, 0)], '|')]
		if i > 0 && ti != "" && tp != "" && tp > ti {
			t.Fatalf("not in time order at %d: %s after %s", i, mem[i], mem[i-1])
		}
	}
	if mem[len(mem)-1][0] != '|' {
		t.Fatalf("undated rows do not sort last: %s", mem[len(mem)-1])
	}
}

// TestEventCodecRoundTrip: every field survives a spill exactly, and a
// corrupt record is an error, never a panic.
func TestEventCodecRoundTrip(t *testing.T) {
	e := Event{Time: time.Date(9999, 12, 31, 23, 59, 59, 123456789, time.UTC), TimeBasis: TimeLocalAsUTC, Host: "h", User: "u", Agent: "a",
		SessionID: "s", ProjectPath: "/p", TurnType: ToolUse, Model: "m", ToolName: "Bash", ToolUseID: "t1", Text: "é\x00text",
		ToolInput: `{"a":1}`, IsError: "false", SourceFile: "/f", SourceLine: -3, BundleID: "b", Parser: "x/y", Secondary: true,
		RecordID: "r#0", ParentSessionID: "p", Verified: "true", Action: ActExecute, Replayed: true, Seq: 7, Ord: 1 << 40}
	for _, in := range []Event{e, {}} {
		b := AppendEventBinary(nil, &in)
		var out Event
		if err := DecodeEventBinary(b, &out); err != nil {
			t.Fatal(err)
		}
		if out != in {
			t.Fatalf("got  %+v\nwant %+v", out, in)
		}
		for i := 0; i < len(b); i++ {
			_ = DecodeEventBinary(b[:i], &out) // must not panic
		}
	}
}

// TestEventFramedAndOwned: the streaming writer frames exactly what
// AppendEventBinary writes, and the owned decoder reads it back.
func TestEventFramedAndOwned(t *testing.T) {
	e := Event{Time: time.Date(2026, 1, 1, 0, 0, 0, 5, time.UTC), Host: "h", Text: strings.Repeat("x", 3<<20), Action: ActMCP, Seq: 3, Secondary: true}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := WriteEventFramed(w, &e); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	rec := AppendEventBinary(nil, &e)
	n, k := binary.Uvarint(b.Bytes())
	if int(n) != len(rec) || !bytes.Equal(b.Bytes()[k:], rec) {
		t.Fatalf("framed record differs: %d vs %d bytes", n, len(rec))
	}
	var out Event
	if err := DecodeEventOwned(append([]byte(nil), rec...), &out); err != nil || out != e {
		t.Fatalf("owned decode: %v", err)
	}
}

// TestTargetBudget: a sorter given no budget takes a 24th of the soft
// memory target, between 8 MiB and 1 GiB, and 8 MiB with no target.
func TestTargetBudget(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	for _, c := range []struct{ limit, want int64 }{
		{math.MaxInt64, 8 << 20}, {192 << 20, 8 << 20}, {384 << 20, 16 << 20}, {32 << 20, 8 << 20}, {3 << 30, 128 << 20}, {64 << 30, 1 << 30},
	} {
		debug.SetMemoryLimit(c.limit)
		if got := NewSorter(t.TempDir(), 0).MemLimit; got != c.want {
			t.Errorf("soft limit %d: budget %d, want %d", c.limit, got, c.want)
		}
		if got := NewSorter(t.TempDir(), 5<<20).MemLimit; got != 5<<20 {
			t.Errorf("soft limit %d: a budget given became %d", c.limit, got)
		}
	}
}

// TestAddHeldAllocatesNothing: adding a value to a sorter copies it into
// its chunk and allocates nothing beyond the chunk (the value handed to
// the size function through its address used to be moved to the heap:
// one allocation an event).
func TestAddHeldAllocatesNothing(t *testing.T) {
	s := NewSorter(t.TempDir(), 1<<30)
	e := Event{Host: "h", User: "u", Agent: "claude-code", SessionID: "s", Text: "a prompt", RecordID: "r1"}
	s.AddHeld(e) // the first chunk
	if got := testing.AllocsPerRun(500, func() { s.AddHeld(e) }); got != 0 {
		t.Errorf("AddHeld: %v allocations a value, want 0", got)
	}
	if s.Len() != 502 {
		t.Errorf("Len = %d, want 502", s.Len())
	}
}

// TestEventFramedStream: events written one after another through writers
// of several sizes (one smaller than a head, so each head is made apart)
// are framed exactly as AppendEventBinary writes them, and a spill's
// framing allocates nothing once the writer has its buffer.
func TestEventFramedStream(t *testing.T) {
	var evs []Event
	for i := range 300 {
		evs = append(evs, Event{Time: time.Date(2026, 1, 1, 0, 0, i, i, time.UTC), Host: "h", Text: strings.Repeat("t", i*7), ToolInput: strings.Repeat("{", i%5),
			Seq: int64(i), Ord: int64(i * 3), SourceLine: int64(i), Replayed: i%2 == 0, Action: ActMCP})
	}
	evs = append(evs, Event{}) // undated, every string empty
	for _, size := range []int{16, 64, 333, 4096, 1 << 20} {
		var b bytes.Buffer
		w := bufio.NewWriterSize(&b, size)
		for i := range evs {
			if err := WriteEventFramed(w, &evs[i]); err != nil {
				t.Fatal(err)
			}
		}
		w.Flush()
		var want []byte
		for i := range evs {
			rec := AppendEventBinary(nil, &evs[i])
			want = binary.AppendUvarint(want, uint64(len(rec)))
			want = append(want, rec...)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("writer of %d bytes: %d bytes written, want %d (first difference at %d)", size, b.Len(), len(want), firstDiff(b.Bytes(), want))
		}
	}
	w := bufio.NewWriterSize(io.Discard, 1<<20)
	if got := testing.AllocsPerRun(200, func() { _ = WriteEventFramed(w, &evs[10]) }); got != 0 {
		t.Errorf("WriteEventFramed: %v allocations an event, want 0", got)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

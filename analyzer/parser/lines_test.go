package parser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 3<<20) // longer than the 64 KiB buffer
	in := "a\r\n\n" + long + "\n\x00\x00\x00\n{\"b\":1\x00}\nlast"
	var got []string
	var nums []int64
	var rep reports
	err := Lines(context.Background(), strings.NewReader(in), &rep, func(n int64, line []byte) error {
		got = append(got, string(line))
		nums = append(nums, n)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", long, `{"b":1}`, "last"}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %.40q, want %.40q", i, got[i], want[i])
		}
	}
	// Numbers count every physical line, blank and NUL-only ones too.
	if nums[0] != 1 || nums[1] != 3 || nums[2] != 5 || nums[3] != 6 {
		t.Errorf("line numbers %v", nums)
	}
	// Every line that lost NULs says so, the NUL-only line too.
	wantRep := []string{
		"4 nul_run 3 NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)",
		"5 nul_run 1 NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)",
	}
	if strings.Join(rep, "|") != strings.Join(wantRep, "|") {
		t.Errorf("reports:\n%s\nwant:\n%s", strings.Join(rep, "\n"), strings.Join(wantRep, "\n"))
	}
}

// reports is a Sink that keeps only what Lines reports.
type reports []string

func (r *reports) Event(timeline.Event)          {}
func (r *reports) Session(timeline.SessionState) {}
func (r *reports) Problem(n int64, msg string)   { r.Report(n, KindParse, msg) }
func (r *reports) Report(n int64, kind, msg string) {
	*r = append(*r, fmt.Sprintf("%d %s %s", n, kind, msg))
}
func (r *reports) Skip(int64, string) {}

// TestLinesNULRunBeforeRecord: a 4 KiB run of NULs left before the next
// record on its line (claude-code #49876) is dropped, reported, and the
// record is still passed whole.
func TestLinesNULRunBeforeRecord(t *testing.T) {
	in := "{\"a\":1}\n" + strings.Repeat("\x00", 4096) + "{\"b\":2}\n"
	var rep reports
	var got []string
	err := Lines(context.Background(), strings.NewReader(in), &rep, func(n int64, line []byte) error {
		got = append(got, fmt.Sprintf("%d:%s", n, line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != `1:{"a":1} 2:{"b":2}` {
		t.Errorf("lines %q", got)
	}
	if len(rep) != 1 || rep[0] != "2 nul_run 4096 NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)" {
		t.Errorf("reports %q", rep)
	}
}

// TestLinesOverLimit: a line over MaxLineBytes is reported and skipped,
// the lines around it are passed.
func TestLinesOverLimit(t *testing.T) {
	defer func(v int64) { MaxLineBytes = v }(MaxLineBytes)
	MaxLineBytes = 100 << 10
	in := "first\n" + strings.Repeat("y", 300<<10) + "\nlast\n"
	var rep reports
	var got []string
	err := Lines(context.Background(), strings.NewReader(in), &rep, func(n int64, line []byte) error {
		got = append(got, fmt.Sprintf("%d:%s", n, line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "1:first 3:last" {
		t.Errorf("lines %q", got)
	}
	if len(rep) != 1 || rep[0] != "2 line_too_long line of 307200 bytes is over the 102400-byte line limit (--max-line): not parsed" {
		t.Errorf("reports %q", rep)
	}
}

func TestLinesStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Lines(ctx, strings.NewReader("a\nb\n"), nil, func(int64, []byte) error { return nil })
	if err == nil {
		t.Fatal("a cancelled context did not stop the read")
	}
}

func TestSplitGlued(t *testing.T) {
	objs, lost := SplitGlued([]byte(`{"type":"pr-link","prNu{"parentUuid":null,"type":"user"}`))
	if !lost || len(objs) != 1 || !bytes.Equal(objs[0], []byte(`{"parentUuid":null,"type":"user"}`)) {
		t.Fatalf("glued: %q lost=%v", objs, lost)
	}
	objs, lost = SplitGlued([]byte(`{"ok":true}`))
	if lost || len(objs) != 1 {
		t.Fatalf("valid line: %q lost=%v", objs, lost)
	}
	if objs, lost = SplitGlued([]byte(`{"cut`)); !lost || objs != nil {
		t.Fatalf("cut line: %q lost=%v", objs, lost)
	}
	// Two complete records on one line: both kept, nothing lost.
	objs, lost = SplitGlued([]byte(`{"a":"A"}{"b":"B"}`))
	if lost || len(objs) != 2 || string(objs[0]) != `{"a":"A"}` || string(objs[1]) != `{"b":"B"}` {
		t.Fatalf("two complete records: %q lost=%v", objs, lost)
	}
	// An inner object of the cut record is not taken for a record.
	objs, lost = SplitGlued([]byte(`{"a":{"b":1},"c{"d":2}`))
	if !lost || len(objs) != 1 || string(objs[0]) != `{"d":2}` {
		t.Fatalf("inner object: %q lost=%v", objs, lost)
	}
}

// TestSplitGluedIsBounded: a long cut line of nested objects (never
// closed) takes a bounded number of passes, not one per '{'.
func TestSplitGluedIsBounded(t *testing.T) {
	line := []byte(strings.Repeat(`{"k":"`+strings.Repeat("v", 100)+`","n":`, 20000))
	objs, lost := SplitGlued(line)
	if !lost || objs != nil {
		t.Fatalf("got %d objects lost=%v", len(objs), lost)
	}
}

// TestLongLinesTakeTurns: at most LongLines lines over LongLine are held
// at once across calls with a Sink: with every turn held, another call
// reaching a long line waits (here until its context ends, without its
// callback ever running); once a turn is given back, it reads. A call
// without a Sink (a lookup) never waits.
func TestLongLinesTakeTurns(t *testing.T) {
	long := strings.Repeat("x", LongLine+10) + "\n"
	hold := make(chan struct{})
	in := make(chan struct{}, LongLines)
	done := make(chan error, LongLines)
	for i := 0; i < LongLines; i++ {
		go func() {
			var rep reports
			done <- Lines(context.Background(), strings.NewReader(long), &rep, func(int64, []byte) error {
				in <- struct{}{}
				<-hold
				return nil
			})
		}()
	}
	for i := 0; i < LongLines; i++ {
		<-in // every turn is held, inside its callback
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var rep reports
	called := false
	err := Lines(ctx, strings.NewReader(long), &rep, func(int64, []byte) error { called = true; return nil })
	if !errors.Is(err, context.Canceled) || called {
		t.Fatalf("with every turn held: err %v, callback ran %v", err, called)
	}
	n := 0
	if err := Lines(context.Background(), strings.NewReader(long), nil, func(int64, []byte) error { n++; return nil }); err != nil || n != 1 {
		t.Fatalf("a lookup without a Sink: err %v, %d lines", err, n)
	}
	close(hold)
	for i := 0; i < LongLines; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if err := Lines(context.Background(), strings.NewReader(long), &rep, func(int64, []byte) error { n++; return nil }); err != nil || n != 2 {
		t.Fatalf("after the turns were given back: err %v, %d lines", err, n)
	}
}

// TestSplitGluedManyBracesInTheCutPart: a complete record glued after a
// cut one is found whatever the number of '{' in the cut fragment (it was
// lost past 64), and records at both ends are kept around a cut middle.
func TestSplitGluedManyBracesInTheCutPart(t *testing.T) {
	cut := `{"type":"assistant","message":{"content":[` + strings.Repeat(`{"type":"text","text":"{{{ \"quoted }\" "},`, 500)
	whole := `{"type":"user","uuid":"u9","message":{"content":"after the cut"}}`
	objs, lost := SplitGlued([]byte(cut + whole))
	if !lost || len(objs) != 1 || string(objs[0]) != whole {
		t.Fatalf("got %d objects lost=%v: %.80q", len(objs), lost, objs)
	}
	a, b := `{"a":"first"}`, `{"b":"last \"}\\\\"}`
	objs, lost = SplitGlued([]byte(a + `{"cut":{"x":[1,2` + b))
	if !lost || len(objs) != 2 || string(objs[0]) != a || string(objs[1]) != b {
		t.Fatalf("both ends: %q lost=%v", objs, lost)
	}
}

func BenchmarkSplitGluedCutLine(b *testing.B) {
	line := []byte(strings.Repeat(`{"k":"`+strings.Repeat("v", 100)+`","n":`, 80000) + `{"ok":1}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if objs, _ := SplitGlued(line); len(objs) != 1 {
			b.Fatal(len(objs))
		}
	}
}

// TestLinesCountsInvalidUTF8: lines holding bytes that are not UTF-8 are
// passed on unchanged and counted in one invalid_utf8 problem for the
// file, at the first such line (T8: it was silent).
func TestLinesCountsInvalidUTF8(t *testing.T) {
	in := "{\"a\":\"ok é\"}\n{\"a\":\"\xff\xfe\"}\n{\"a\":\"fine\"}\n{\"a\":\"x\xc3\"}\n"
	var got []string
	var rep reports
	err := Lines(context.Background(), strings.NewReader(in), &rep, func(n int64, line []byte) error {
		got = append(got, string(line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[1] != "{\"a\":\"\xff\xfe\"}" {
		t.Errorf("lines %q", got)
	}
	want := "2 invalid_utf8 2 line(s) held bytes that are not valid UTF-8 (the first at this line): each such byte is U+FFFD in the rows' text"
	if strings.Join(rep, "|") != want {
		t.Errorf("reports %q, want %q", rep, want)
	}
	rep = nil
	Lines(context.Background(), strings.NewReader("{\"a\":\"é\"}\n"), &rep, func(int64, []byte) error { return nil })
	if len(rep) != 0 {
		t.Errorf("valid UTF-8 reported: %q", rep)
	}
}

package parser

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 3<<20) // longer than the 64 KiB buffer
	in := "a\r\n\n" + long + "\n\x00\x00\x00\n{\"b\":1\x00}\nlast"
	var got []string
	var nums []int64
	err := Lines(context.Background(), strings.NewReader(in), func(n int64, line []byte) error {
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
}

func TestLinesStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Lines(ctx, strings.NewReader("a\nb\n"), func(int64, []byte) error { return nil })
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

package timeline

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/go-json-experiment/json/v1"
)

// TestAppendRowMatchesEncoder: AppendRow writes exactly what the
// reflection encoder writes for ToRow, on hand-made edge cases and on
// every row of the real-agent end-to-end goldens.
func TestAppendRowMatchesEncoder(t *testing.T) {
	evs := []Event{
		{Time: time.Date(2026, 1, 2, 3, 4, 5, 678900000, time.UTC), Host: "h", Text: "quote \" backslash \\ <tag> & ok", SourceLine: 7, Secondary: true},
		{Text: "ctl \x00\x01\x1f \b\f\n\r\t del \x7f", TimeBasis: TimeFileMTime},
		{Text: "bad utf8 \xff\xfe end \u2028 \u2029 é 🎉", ToolInput: `{"a":"<b>"}`, Action: ActExecute},
		{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)), RecordID: "r#1", ParentSessionID: "p", Verified: "false"},
		{Text: "carved", Recovered: "partial", Provenance: "freeblock on page 2 at offset 4010, partial: \"header\" lost"},
	}
	files, _ := filepath.Glob("../../fixtures/golden/*.timeline.jsonl")
	if len(files) == 0 {
		t.Fatal("no end-to-end goldens")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var r Row
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			e := Event{Host: r.Host, User: r.User, Agent: r.Agent, SessionID: r.SessionID, ProjectPath: r.ProjectPath, TurnType: TurnType(r.TurnType),
				Model: r.Model, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Text: r.Text, ToolInput: r.ToolInput, IsError: r.IsError,
				SourceFile: r.SourceFile, SourceLine: r.SourceLine, BundleID: r.BundleID, Parser: r.Parser, Secondary: r.Secondary == "true",
				TimeBasis: TimeBasis(r.TimeBasis), RecordID: r.RecordID, ParentSessionID: r.ParentSessID, Verified: r.Verified, Action: Action(r.Action),
				Recovered: r.Recovered, Provenance: r.Provenance}
			if r.TimestampUTC != "" {
				e.Time, _ = time.Parse(time.RFC3339Nano, r.TimestampUTC)
			}
			evs = append(evs, e)
		}
		fh.Close()
	}
	if len(evs) < 500 {
		t.Fatalf("only %d rows", len(evs))
	}
	for i := range evs {
		var want bytes.Buffer
		if err := AppendJSON(&want, evs[i].ToRow()); err != nil {
			t.Fatal(err)
		}
		got := AppendRow(nil, &evs[i])
		if string(got) != want.String() {
			t.Fatalf("row %d:\n got  %s\n want %s", i, got, strings.TrimSpace(want.String()))
		}
	}
}

func BenchmarkAppendRow(b *testing.B) {
	e := Event{Time: time.Now(), Host: "host", User: "user", Agent: "claude-code", SessionID: "0190cccc-0000-7000-8000-000000000003",
		TurnType: ToolResult, Text: strings.Repeat("output line with \"quotes\"\n", 40), SourceFile: "/home/u/.claude/projects/x/y.jsonl", Parser: "claude-code/transcript"}
	var buf []byte
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			buf = AppendRow(buf[:0], &e)
		}
	})
	b.Run("encoder", func(b *testing.B) {
		var w bytes.Buffer
		for b.Loop() {
			w.Reset()
			AppendJSON(&w, e.ToRow())
		}
	})
}

// TestLongRowStreamsTheSameBytes: a row whose text is written 64 KiB at a
// time (cut at rune starts, escapes and multi-byte runes across the cuts)
// is byte for byte AppendRow's.
func TestLongRowStreamsTheSameBytes(t *testing.T) {
	text := strings.Repeat("é\"\\\n\u2028ok 🎉 ", 400000) + "\xff end"
	e := Event{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Text: text, ToolInput: strings.Repeat(`{"a":"<b>"}`, 200000)}
	want := AppendRow(nil, &e)
	var b bytes.Buffer
	w := NewWriter(&b)
	if err := w.WriteEvent(&e); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("streamed row differs (%d vs %d bytes)", b.Len(), len(want))
	}
}

// TestWireRowIsWhatReadsBack: the row in memory the findings pass sees is
// the row a reader decodes from the written line, invalid UTF-8 included
// (each bad byte one U+FFFD), in every string field.
func TestWireRowIsWhatReadsBack(t *testing.T) {
	evs := []Event{
		{Time: time.Date(2026, 1, 2, 3, 4, 5, 678900000, time.UTC), Host: "h\xff", User: "u\xc3", Agent: "a", SessionID: "s\xed\xa0\x80",
			Text: "bad \xff\xfe\xfd run, cut \xe2\x82 and \u2028 é", ToolInput: "{\"a\":\"\xc0\xaf\"}", ToolName: "\x80", SourceFile: "/p/\xff", SourceLine: 3,
			RecordID: "r\xfe#1", ParentSessionID: "\xf5x", Model: "m\xff", Parser: "p", Verified: "true", Action: ActExecute, TurnType: ToolUse},
		{Text: "ctl \x00\x01 fine", TimeBasis: TimeFileMTime, Secondary: true},
	}
	for i := range evs {
		var back Row
		if err := json.Unmarshal(AppendRow(nil, &evs[i]), &back); err != nil {
			t.Fatal(err)
		}
		if got := evs[i].WireRow(); got != back {
			t.Errorf("row %d:\n got %#v\nwant %#v", i, got, back)
		}
	}
	if got := WireString("a\xff\xfeb"); got != "a\ufffd\ufffdb" {
		t.Errorf("WireString = %q", got)
	}
}

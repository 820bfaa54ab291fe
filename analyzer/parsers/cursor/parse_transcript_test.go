package cursor

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	parentID = "11111111-0000-4000-8000-00000000000a"
	subID    = "22222222-0000-4000-8000-00000000000b"
	slugA    = "/home/examiner/.cursor/projects/home-examiner-a/agent-transcripts/"
	slugB    = "/home/examiner/.cursor/projects/home-examiner-b/agent-transcripts/"
)

func trInput(t *testing.T, local, orig string, related parsertest.Files) *parser.Input {
	t.Helper()
	if related == nil {
		related = parsertest.Files{}
	}
	related[orig] = local
	return parsertest.Input(t, local, parser.File{Path: orig, Agent: Agent, Target: "agent-transcripts"}, related)
}

func TestTranscriptTypical(t *testing.T) {
	orig := slugA + parentID + "/" + parentID + ".jsonl"
	s := parsertest.Golden(t, byID(t, "cursor/transcript"), trInput(t, "testdata/transcripts/typical.jsonl", orig, nil), "testdata/transcript_typical.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	for _, e := range s.Events {
		if !e.Secondary || e.SessionID != parentID {
			t.Fatalf("row not secondary or wrong session: %+v", e)
		}
	}
	u := find(s, func(e timeline.Event) bool { return e.TurnType == timeline.User })
	// 1:11 PM at UTC+3 is 10:11 UTC; 11:59 PM at UTC-4 is 03:59 UTC the next day.
	// The <timestamp> tag is a time recorded to the minute (issue 12:
	// time_basis recorded-minute); later rows inherit it.
	if len(u) != 3 || u[0].Text != "fix the build" || !u[0].Time.Equal(parsertest.Time(t, "2026-07-21T10:11:00Z")) || u[0].TimeBasis != timeline.TimeMinute ||
		u[1].Text != "and run the tests" || u[1].TimeBasis != timeline.TimeInherited || !u[1].Time.Equal(u[0].Time) ||
		u[2].Text != "late night" || !u[2].Time.Equal(parsertest.Time(t, "2026-07-22T03:59:00Z")) || u[2].SourceLine != 9 || u[2].TimeBasis != timeline.TimeMinute ||
		u[0].RecordID != parentID+":line1#1" || u[2].RecordID != parentID+":line9#0" {
		t.Fatalf("user rows: %+v", u)
	}
	if ic := withText(s, "injected context:"); len(ic) != 1 || ic[0].Text != "injected context: <attached_files>\n<file path=\"main.go\"/>\n</attached_files>" {
		t.Fatalf("injected: %+v", ic)
	}
	// "[REDACTED]" stands for reasoning Cursor left out: a system row, so
	// it never reads as the model's thinking.
	if th := find(s, func(e timeline.Event) bool { return e.TurnType == timeline.Thinking }); len(th) != 0 {
		t.Fatalf("thinking: %+v", th)
	}
	if w := withText(s, "reasoning withheld"); len(w) != 1 || w[0].Text != "reasoning withheld in the transcript: [REDACTED]" || w[0].SourceLine != 2 {
		t.Fatalf("withheld: %+v", w)
	}
	tu := find(s, func(e timeline.Event) bool { return e.TurnType == timeline.ToolUse })
	if len(tu) != 3 || tu[0].ToolUseID != "toolu_a1" || tu[0].Text != "go build ./..." || tu[1].Text != "main.go" || tu[2].ToolName != "Subagent" || tu[2].ToolUseID != "" || tu[2].Text != "run go test and report" {
		t.Fatalf("tool_use: %+v", tu)
	}
	tr := find(s, func(e timeline.Event) bool { return e.TurnType == timeline.ToolResult })
	if len(tr) != 1 || tr[0].ToolUseID != "toolu_a1" || tr[0].IsError != "true" || tr[0].Text != "main.go:3: undefined: x" {
		t.Fatalf("tool_result: %+v", tr)
	}
	if te := withText(s, "turn ended:"); len(te) != 1 || te[0].Text != "turn ended: error User aborted the request." {
		t.Fatalf("turn ended: %+v", te)
	}
	// Every line accounted for: the successful turn_ended is a Skip.
	if sk := s.SkipCounts(); len(sk) != 1 || sk["turn_ended_success"] != 1 || s.Skips[0].Line != 5 {
		t.Fatalf("skips: %+v", s.Skips)
	}
}

func TestTranscriptEmpty(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/transcript"), trInput(t, "testdata/transcripts/empty.jsonl", slugA+"x/x.jsonl", nil), "testdata/transcript_empty.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("got %+v %v", s.Events, s.Problems)
	}
}

func TestTranscriptMalformed(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/transcript"), trInput(t, "testdata/transcripts/malformed.jsonl", slugA+"m/m.jsonl", nil), "testdata/transcript_malformed.golden.jsonl")
	if len(s.Problems) != 3 {
		t.Fatalf("problems: %v", s.Problems)
	}
	a := find(s, func(e timeline.Event) bool { return e.TurnType == timeline.Assistant })
	if len(a) != 2 || a[0].Text != "glued after a cut record" || a[1].Text != "still parsed" || a[1].SourceLine != 5 {
		t.Fatalf("assistant rows: %+v", a)
	}
}

// TestTranscriptBesideStateDB: a transcript gives its own rows, with this
// parser's id, whether or not a state.vscdb of the same home was
// collected; the engine pairs them with the database's (issue 12: a row's
// parser names the parser that read its file).
func TestTranscriptBesideStateDB(t *testing.T) {
	orig := slugA + parentID + "/" + parentID + ".jsonl"
	in := trInput(t, "testdata/transcripts/typical.jsonl", orig, parsertest.Files{dbPath: "testdata/empty.sql"})
	s := parsertest.Run(t, byID(t, "cursor/transcript"), in)
	if len(s.Events) != 12 {
		t.Fatalf("rows beside a collected state.vscdb: %d", len(s.Events))
	}
	for _, e := range s.Events {
		if e.Parser != "cursor/transcript" || e.SourceFile != orig || !e.Secondary {
			t.Fatalf("row: %+v", e)
		}
	}
}

// TestTranscriptNoTimestamp: a transcript without a <timestamp> tag keeps
// every row, undated (issue 12: the session with rm -rf logs/ was lost).
func TestTranscriptNoTimestamp(t *testing.T) {
	orig := slugA + "nots/nots.jsonl"
	s := parsertest.Golden(t, byID(t, "cursor/transcript"), trInput(t, "testdata/transcripts/no_timestamp.jsonl", orig, nil), "testdata/transcript_no_timestamp.golden.jsonl")
	var got []string
	for _, e := range s.Events {
		if !e.Time.IsZero() || e.TimeBasis != timeline.TimeNone || e.SessionID != "nots" {
			t.Fatalf("row with a time: %+v", e)
		}
		got = append(got, string(e.TurnType)+":"+e.Text+":"+e.RecordID)
	}
	want := "user:clear the logs:nots:line1#0|assistant:Removing the log directory.:nots:line2#0|tool_use:rm -rf logs/:nots:line2#1"
	if strings.Join(got, "|") != want || len(s.Problems) != 0 {
		t.Fatalf("rows: %q problems %v", got, s.Problems)
	}
}

// TestTranscriptLegacyTxt: the plain-text agent-transcripts/<uuid>.txt of
// older builds.
func TestTranscriptLegacyTxt(t *testing.T) {
	orig := slugA + parentID + ".txt"
	s := parsertest.Golden(t, byID(t, "cursor/transcript"), trInput(t, "testdata/transcripts/legacy.txt", orig, nil), "testdata/transcript_legacy.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	var got []string
	for _, e := range s.Events {
		if e.SessionID != parentID || !e.Secondary || e.TimeBasis != timeline.TimeNone {
			t.Fatalf("row: %+v", e)
		}
		got = append(got, fmt.Sprintf("%d %s %s %s %s", e.SourceLine, e.TurnType, e.ToolName, e.Text, e.ToolInput))
	}
	want := []string{
		"1 user  install telegram ",
		"6 thinking  The user wants Telegram; flatpak will do. ",
		"6 tool_use Shell flatpak install flathub org.telegram.desktop -y {\"command\":\"flatpak install flathub org.telegram.desktop -y\",\"description\":\"Install Telegram via Flatpak\"}",
		"6 assistant  I'll install it with Flatpak. ",
		"6 tool_result Shell  ",
		"15 assistant  Telegram is installed. ",
		"18 user  thanks ",
	}
	// Rows of one record share its line; timeline order keeps emission
	// order there.
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
}

// TestTranscriptCopies: the same transcript under two project slugs gives
// the same record ids (the engine writes each record once); a subagent's
// transcript is its own session linked to its parent, the parent's prompt
// to it a system row; its top-level copy gives the subagent's rows, never
// a session of its own (cctop's rule).
func TestTranscriptCopies(t *testing.T) {
	dir := t.TempDir()
	write := func(name, from string, mt time.Time) string {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old, recent := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 22, 0, 0, 0, 0, time.UTC)
	files := parsertest.Files{
		slugA + parentID + "/" + parentID + ".jsonl":        write("a.jsonl", "testdata/transcripts/typical.jsonl", recent),
		slugB + parentID + "/" + parentID + ".jsonl":        write("b.jsonl", "testdata/transcripts/typical.jsonl", old),
		slugA + parentID + "/subagents/" + subID + ".jsonl": write("sub.jsonl", "testdata/transcripts/subagent.jsonl", recent),
		slugA + subID + "/" + subID + ".jsonl":              write("subcopy.jsonl", "testdata/transcripts/subagent.jsonl", recent),
	}
	run := func(orig string) *parsertest.Sink {
		in := parsertest.Input(t, files[orig], parser.File{Path: orig, Agent: Agent, Target: "agent-transcripts"}, files)
		return parsertest.Run(t, byID(t, "cursor/transcript"), in)
	}
	ids := func(s *parsertest.Sink) string {
		var out []string
		for _, e := range s.Events {
			out = append(out, e.RecordID+"="+e.SessionID+"<"+e.ParentSessionID+":"+e.Text)
		}
		return strings.Join(out, "\n")
	}
	a, b := run(slugA+parentID+"/"+parentID+".jsonl"), run(slugB+parentID+"/"+parentID+".jsonl")
	if len(a.Events) != 12 || ids(a) != ids(b) {
		t.Fatalf("copies under two slugs differ:\n%s\n--\n%s", ids(a), ids(b))
	}
	s := run(slugA + parentID + "/subagents/" + subID + ".jsonl")
	if len(s.Events) != 4 {
		t.Fatalf("subagent rows: %+v", s.Events)
	}
	for _, e := range s.Events {
		if e.SessionID != subID || e.ParentSessionID != parentID || !e.Secondary {
			t.Fatalf("subagent row: %+v", e)
		}
	}
	if s.Events[0].Text != "subagent "+subID+" of "+parentID || s.Events[0].RecordID != subID+"#subagent" ||
		s.Events[1].Text != "subagent task: run go test and report" || s.Events[1].TurnType != timeline.System ||
		s.Events[2].Text != "go test ./..." || s.Events[2].RecordID != subID+":line2#0" {
		t.Fatalf("subagent rows: %+v", s.Events)
	}
	if len(s.States) != 1 || s.States[0].Key.SessionID != subID || s.States[0].ParentSessionID != parentID {
		t.Fatalf("subagent state: %+v", s.States)
	}
	if c := run(slugA + subID + "/" + subID + ".jsonl"); ids(c) != ids(s) || len(c.States) != 1 || c.States[0].ParentSessionID != parentID {
		t.Fatalf("top-level copy of a subagent:\n%s\n--\n%s", ids(c), ids(s))
	}
}

func TestParseTagTime(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)", "2026-07-21T10:11:00Z"},
		{"Thursday, Jul 2, 2026, 11:11 AM (UTC-4)", "2026-07-02T15:11:00Z"},
		{"Thursday, Jul 2, 2026, 11:11 AM (UTC+5:30)", "2026-07-02T05:41:00Z"},
		{"Thursday, Jul 2, 2026, 11:11 AM (UTC+0)", "2026-07-02T11:11:00Z"},
		{"Thursday, Jul 2, 2026, 11:11 AM (UTC)", "2026-07-02T11:11:00Z"},
		{"Thursday, Jul 2, 2026, 12:00 AM (UTC-4)", "2026-07-02T04:00:00Z"},
		{"Thursday, Jul 2, 2026, 12:00 PM (UTC-4)", "2026-07-02T16:00:00Z"},
		{"Thursday, Feb 30, 2026, 11:11 AM (UTC-4)", ""},
		{"yesterday", ""},
	}
	for _, c := range cases {
		got, ok := parseTagTime(c.in)
		if c.want == "" {
			if ok {
				t.Errorf("%q: got %v, want failure", c.in, got)
			}
			continue
		}
		if !ok || !got.Equal(parsertest.Time(t, c.want)) {
			t.Errorf("%q: got %v %v, want %s", c.in, got, ok, c.want)
		}
	}
}

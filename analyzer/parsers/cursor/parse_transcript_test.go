package cursor

import (
	"os"
	"path/filepath"
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
	if len(u) != 3 || u[0].Text != "fix the build" || !u[0].Time.Equal(parsertest.Time(t, "2026-07-21T10:11:00Z")) || u[0].TimeBasis != timeline.TimeRecorded ||
		u[1].Text != "and run the tests" || u[1].TimeBasis != timeline.TimeInherited || !u[1].Time.Equal(u[0].Time) ||
		u[2].Text != "late night" || !u[2].Time.Equal(parsertest.Time(t, "2026-07-22T03:59:00Z")) || u[2].SourceLine != 9 {
		t.Fatalf("user rows: %+v", u)
	}
	if ic := withText(s, "injected context:"); len(ic) != 1 || ic[0].Text != "injected context: <attached_files>\n<file path=\"main.go\"/>\n</attached_files>" {
		t.Fatalf("injected: %+v", ic)
	}
	if th := find(s, func(e timeline.Event) bool { return e.TurnType == timeline.Thinking }); len(th) != 1 || th[0].Text != "[REDACTED]" {
		t.Fatalf("thinking: %+v", th)
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

// TestTranscriptLeftToStateDB: with a state.vscdb of the same home
// collected, the database parser owns the transcripts.
func TestTranscriptLeftToStateDB(t *testing.T) {
	orig := slugA + parentID + "/" + parentID + ".jsonl"
	in := trInput(t, "testdata/transcripts/typical.jsonl", orig, parsertest.Files{dbPath: "testdata/empty.sql"})
	if s := parsertest.Run(t, byID(t, "cursor/transcript"), in); len(s.Events) != 0 {
		t.Fatalf("rows emitted beside a collected state.vscdb: %d", len(s.Events))
	}
	// A database of another home does not count.
	in = trInput(t, "testdata/transcripts/typical.jsonl", orig, parsertest.Files{"/home/other/.config/Cursor/User/globalStorage/state.vscdb": "testdata/empty.sql"})
	if s := parsertest.Run(t, byID(t, "cursor/transcript"), in); len(s.Events) == 0 {
		t.Fatal("no rows when only another home has a database")
	}
}

// TestTranscriptCopies: a subagent folds into its parent; its top-level
// copy is skipped; of two copies under two project slugs the newest wins.
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
	if s := run(slugA + parentID + "/" + parentID + ".jsonl"); len(s.Events) == 0 {
		t.Fatal("newest copy gave no rows")
	}
	if s := run(slugB + parentID + "/" + parentID + ".jsonl"); len(s.Events) != 0 {
		t.Fatalf("older copy under another slug gave %d rows", len(s.Events))
	}
	if s := run(slugA + subID + "/" + subID + ".jsonl"); len(s.Events) != 0 {
		t.Fatalf("subagent's top-level copy gave %d rows", len(s.Events))
	}
	s := run(slugA + parentID + "/subagents/" + subID + ".jsonl")
	if len(s.Events) != 4 {
		t.Fatalf("subagent rows: %+v", s.Events)
	}
	for _, e := range s.Events {
		if e.SessionID != parentID || !e.Secondary {
			t.Fatalf("subagent row not folded into the parent: %+v", e)
		}
	}
	if s.Events[0].Text != "subagent "+subID+" of "+parentID || s.Events[1].Text != "subagent prompt: run go test and report" ||
		s.Events[1].TurnType != timeline.System || s.Events[2].Text != "go test ./..." {
		t.Fatalf("subagent rows: %+v", s.Events)
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

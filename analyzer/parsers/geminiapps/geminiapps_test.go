package geminiapps

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const rel = "Downloads/Takeout/My Activity/Gemini Apps/MyActivity.json"

func run(t *testing.T, local, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "takeout"}, nil)
	return parsertest.Golden(t, Parsers()[0], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s sid=%s rec=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.SessionID, e.RecordID, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

// TestActivity: a prompt is a user row with its attached files and stored
// response; another Gemini Apps record is a system row; a second record of
// the same time keeps its own identity; another product and a non-record
// are problems; a record without a time says so.
func TestActivity(t *testing.T) {
	s := run(t, "testdata/MyActivity.json", "activity")
	want := `1 user sid=activity-2026-11-24T10:00:05.123Z rec=2026-11-24T10:00:05.123Z t=2026-11-24T10:00:05.123Z/: "how do I disable the audit log on our build server"
1 system sid=activity-2026-11-24T10:00:05.123Z rec=2026-11-24T10:00:05.123Z#1 t=2026-11-24T10:00:05.123Z/: "files attached to the prompt: auditd.conf"
1 assistant sid=activity-2026-11-24T10:00:05.123Z rec=2026-11-24T10:00:05.123Z#2 t=2026-11-24T10:00:05.123Z/: "<p>Edit <code>/etc/audit/auditd.conf</code> and ...</p>"
3 user sid=activity-2026-11-24T10:00:05.123Z@1 rec=2026-11-24T10:00:05.123Z@1 t=2026-11-24T10:00:05.123Z/: "how do I disable the audit log on our build server"
2 system sid=activity-2026-11-24T10:01:00Z rec=2026-11-24T10:01:00Z t=2026-11-24T10:01:00.000Z/: "Gemini Apps activity: Created Gem \"Build helper\""
6 user sid=activity-record-6 rec=record-6 t=/none: "write a haiku"
`
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	wantP := "line 4: skipped_record: a My Activity record of YouTube, not Gemini Apps|line 5: record 5 is not a JSON object: JSON line is"
	if got := strings.Join(s.Problems, "|"); !strings.HasPrefix(got, "line 4: skipped_record: a My Activity record of YouTube, not Gemini Apps|line 5: record 5 is not a JSON object") || strings.Count(got, "|") != 1 {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantP)
	}
}

// TestBadFiles: a cut export keeps the records before the cut and names
// it; an object is not the array; an empty file gives nothing.
func TestBadFiles(t *testing.T) {
	s := run(t, "testdata/cut.json", "cut")
	if len(s.Events) != 1 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 2: record 2 is not valid JSON") {
		t.Errorf("cut: %d rows, %v", len(s.Events), s.Problems)
	}
	s = run(t, "testdata/object.json", "object")
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: not a JSON array" {
		t.Errorf("object: %d rows, %v", len(s.Events), s.Problems)
	}
	s = run(t, "testdata/empty.json", "empty")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Errorf("empty: %d rows, %v", len(s.Events), s.Problems)
	}
}

package devin

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var transcriptFile = parser.File{Path: root + "transcripts/sess-9.json", Target: "transcripts", Agent: Agent, MTime: mtime}

func runTranscript(t *testing.T, doc string) *parsertest.Sink {
	t.Helper()
	local := filepath.Join(t.TempDir(), "sess-9.json")
	if err := os.WriteFile(local, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return parsertest.Run(t, byID(t, "devin/transcripts"), parsertest.Input(t, local, transcriptFile, nil))
}

// TestTranscriptStreamProblems: the streaming reader gives the problem
// decoding the whole document gave (the wording was taken from
// encoding/json's Decode into the old struct for each document) for a
// document that fails before its steps array; one cut short or broken
// once its steps array is begun keeps each complete step before the
// failure (its rows) and gives one problem naming the byte it was read
// to, read once or twice (eachBudget). A header member of the wrong type
// still gives no rows.
func TestTranscriptStreamProblems(t *testing.T) {
	eachBudget(t, testStreamProblems)
}

// eachBudget runs f with the steps held (one read) and with none held
// (every transcript read twice).
func eachBudget(t *testing.T, f func(t *testing.T)) {
	for _, b := range []int{holdBudget, 0} {
		t.Run(fmt.Sprintf("hold-%d", b), func(t *testing.T) {
			defer func(old int) { holdBudget = old }(holdBudget)
			holdBudget = b
			f(t)
		})
	}
}

func testStreamProblems(t *testing.T) {
	const not = "line 1: Devin transcript is not a JSON object: "
	for _, c := range []struct {
		doc, want string
		rows      int
	}{
		{`[1,2]`, not + "expected an object, found an array", 0},
		{`[1,2`, not + "unexpected end of JSON input", 0},
		{`"x"`, not + "expected an object, found a string", 0},
		{`5`, not + "expected an object, found a number", 0},
		{`true`, not + "expected an object, found true or false", 0},
		{``, not + "unexpected end of JSON input", 0},
		{`null`, "line 1: Devin transcript without a steps array: not read", 0},
		{`{"steps":"x"}`, not + "expected an array at steps, found a string", 0},
		{`{"steps":{"a":[1]}}`, not + "expected an array at steps, found an object", 0},
		{`{"steps":5,"agent":[]}`, not + "expected an array at steps, found a number", 0},
		{`{"agent":"x","steps":[]}`, not + "expected an object at agent, found a string", 0},
		{`{"agent":{"model_name":1},"steps":[]}`, not + "expected a string at agent.model_name, found a number", 0},
		{`{"steps":[],"updated_at":5,"cwd":true}`, not + "expected a string at updated_at, found a number", 0},
		{`{"steps":[{"source":"user","message":"hi"}],"steps":null}`, "line 1: skipped_record: an earlier steps member of 1 step(s) not read: a later steps member replaces it (the last is read)|line 1: Devin transcript without a steps array: not read", 0},
		{`{"agent":{"model_name":"m"},"ste`, not + "unexpected end of JSON input", 0},
		{`{"steps":`, not + "unexpected end of JSON input", 0},
		{`{"steps":[{"source":"user","mess`, "line 1: Devin transcript cut short (unexpected end of JSON input) inside its steps array: the 0 complete step(s) before the cut are read, the step being written and the rest of the file are not", 0},
		{`{"steps":[{"source":"user","message":"hi"},{"source":`, "line 1: Devin transcript cut short (unexpected end of JSON input) inside its steps array: the 1 complete step(s) before the cut are read, the step being written and the rest of the file are not", 1},
		{`{"steps":[{"source":"user","message":"hi"},{"source":"user","message":"ho"}`, "line 1: Devin transcript cut short (unexpected end of JSON input) inside its steps array: the 2 complete step(s) before the cut are read, the step being written and the rest of the file are not", 2},
		{`{"steps":[{"source":"user","message":"hi"}]`, "line 1: Devin transcript cut short (unexpected end of JSON input) after its steps array: its 1 step(s) are read, the members after the cut are not", 1},
		{`{"steps":[{"source":"user","message":"hi"}],"final_metrics":{"total_`, "line 1: Devin transcript cut short (unexpected end of JSON input) after its steps array: its 1 step(s) are read, the members after the cut are not", 1},
		{`{"steps":[{"source":"user","message":"hi"}] x`, "line 1: Devin transcript broken (invalid character 'x' after object key:value pair) after its steps array: its 1 step(s) are read, the members after the break are not", 1},
		{`{"steps":[{"source":"user","message":"hi"},{"source":"user","message":"ho"} {`, "line 1: Devin transcript broken (expected comma after array element) inside its steps array: the 2 complete step(s) before the break are read, the step being written and the rest of the file are not", 2},
		{`{"agent":"x","steps":[{"source":"user","message":"hi"},`, not + "unexpected end of JSON input", 0},
		{`{"steps":[1,{"source":"user","message":"hi"}]}`, "line 1: transcript step 1 is not a JSON object: expected an object, found a number", 1},
	} {
		s := runTranscript(t, c.doc)
		if got := strings.Join(s.Problems, "|"); got != c.want || len(s.Events) != c.rows {
			t.Errorf("%s: problems %q rows %d, want %q rows %d", c.doc, got, len(s.Events), c.want, c.rows)
		}
	}
}

// TestTranscriptStreamHeader: members after the steps still apply to
// them (the first pass reads the header wherever it is), keys match
// without regard to case as encoding/json matched them, and of two steps
// arrays the last is read, as decoding the whole document did, the
// earlier one's steps a counted skipped_record problem.
func TestTranscriptStreamHeader(t *testing.T) {
	eachBudget(t, testStreamHeader)
}

func testStreamHeader(t *testing.T) {
	s := runTranscript(t, `{"STEPS":[{"source":"user","message":"first"}],"Steps":[{"source":"agent","timestamp":"2026-11-25T09:46:41Z","message":"second"}],"Agent":{"model_name":"swe-1.5"},"cwd":"/home/alice/app"}`)
	if len(s.Events) != 1 || len(s.Problems) != 1 || s.Problems[0] != "line 1: skipped_record: an earlier steps member of 1 step(s) not read: a later steps member replaces it (the last is read)" {
		t.Fatalf("rows %+v problems %q", s.Events, s.Problems)
	}
	e := s.Events[0]
	if e.TurnType != timeline.Assistant || e.Text != "second" || e.Model != "swe-1.5" || e.ProjectPath != "/home/alice/app" || e.RecordID != "step-1#text" || e.Time.Format("15:04:05") != "09:46:41" {
		t.Fatalf("row %+v", e)
	}
}

// TestTranscriptChangedBetweenReads: a transcript rewritten between the
// two passes keeps the rows read and says the rest was not read.
func TestTranscriptChangedBetweenReads(t *testing.T) {
	first := []byte(`{"steps":[{"source":"user","message":"one"},{"source":"user","message":"two"}],"final_metrics":{"total_prompt_tokens":3}}`)
	second := []byte(`{"steps":[{"source":"user","message":"one"},{"source":`)
	defer func(b int) { holdBudget = b }(holdBudget)
	holdBudget = 50 // the first step is held, the second is not: read again
	reads := 0
	in := &parser.Input{File: transcriptFile}
	in.OpenFunc = func() (io.ReadCloser, error) {
		reads++
		if reads == 1 {
			return io.NopCloser(bytes.NewReader(first)), nil
		}
		return io.NopCloser(bytes.NewReader(second)), nil
	}
	in.RelatedFunc = func(string) (io.ReadCloser, error) { return nil, parser.ErrNotCollected }
	in.ListFunc = func(string) []parser.File { return nil }
	s := parsertest.Run(t, byID(t, "devin/transcripts"), in)
	want := "line 1: Devin transcript changed between its two reads (a racing writer): steps after the change not read: unexpected end of JSON input"
	if reads != 2 || len(s.Events) != 2 || s.Events[0].Text != "one" || s.Events[1].Text != "final metrics: {\"total_prompt_tokens\":3}" || strings.Join(s.Problems, "|") != want {
		t.Fatalf("reads %d rows %+v problems %q", reads, s.Events, s.Problems)
	}
}

// TestTranscriptReadAgain: the fixture transcript read twice (no step
// held) gives the rows and problems it gives read once.
func TestTranscriptReadAgain(t *testing.T) {
	f := parser.File{Path: root + "transcripts/sess-1.json", Target: "transcripts", Agent: Agent, MTime: mtime}
	p := byID(t, "devin/transcripts")
	once := parsertest.Run(t, p, parsertest.Input(t, "testdata/transcripts/sess-1.json", f, nil))
	defer func(old int) { holdBudget = old }(holdBudget)
	holdBudget = 0
	twice := parsertest.Run(t, p, parsertest.Input(t, "testdata/transcripts/sess-1.json", f, nil))
	if len(once.Events) != 9 || !reflect.DeepEqual(once.Events, twice.Events) || !reflect.DeepEqual(once.Problems, twice.Problems) {
		t.Fatalf("read once: %d rows %q; read twice: %d rows %q", len(once.Events), once.Problems, len(twice.Events), twice.Problems)
	}
}

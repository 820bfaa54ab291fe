package claudecode_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// Impossible times (issue 23): 0000-01-01 and 9999-12-31 are kept as
// recorded but marked implausible, with one problem for the file; a
// record that inherits the time before it never inherits 9999.
func TestEngineImplausibleTimes(t *testing.T) {
	rec := func(uuid, ts, text string) string {
		return fmt.Sprintf(`{"type":"user","uuid":%q,"sessionId":%q,"timestamp":%q,"cwd":"/home/examiner/demo","message":{"role":"user","content":%q}}`, uuid, sessS, ts, text)
	}
	o := runEngine(t, []bundletest.File{file(sessS+".jsonl",
		rec("u1", "2026-11-29T10:00:00.000Z", "first"),
		rec("u2", "9999-12-31T23:59:59.999Z", "far future"),
		rec("u3", "not a time", "after the future"),
		rec("u4", "0000-01-01T00:00:00Z", "year zero"),
		rec("u5", "1970-01-01T00:00:00Z", "epoch zero"),
		rec("u6", "2026-11-29T10:05:00.000Z", "last"),
	)})
	var got []string
	for _, r := range o.rows {
		got = append(got, fmt.Sprintf("%s %s %q %s", r.RecordID, r.TimestampUTC, r.TimeBasis, r.Text))
	}
	want := []string{
		`u4 0000-01-01T00:00:00.000Z "implausible" year zero`,
		`u5 1970-01-01T00:00:00.000Z "implausible" epoch zero`,
		`u1 2026-11-29T10:00:00.000Z "" first`,
		`u6 2026-11-29T10:05:00.000Z "" last`,
		`u2 9999-12-31T23:59:59.999Z "implausible" far future`,
		`u3  "none" after the future`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var probs []string
	for _, p := range o.problems {
		if p.Kind == analyze.KindImplausibleTime {
			probs = append(probs, fmt.Sprintf("%d %s", p.SourceLine, p.Message))
		}
	}
	wantP := "2 3 row(s) with a time outside the plausible window 1990-01-01 to 2026-12-02T00:00:00Z kept as recorded, time_basis implausible; the first at line 2: 9999-12-31T23:59:59.999Z (recorded by the agent); 1 row(s) that inherited such a time left undated (time_basis none)"
	if len(probs) != 1 || probs[0] != wantP {
		t.Errorf("implausible_time problems %q\nwant %q", probs, wantP)
	}
}

// A prompt of ~/.claude.json projects[].history that the transcript also
// holds is one row (the transcript's); the others stay, undated and
// secondary.
func TestEngineLegacyHistoryPairs(t *testing.T) {
	legacy, err := os.ReadFile("testdata/legacy_history.claude.json")
	if err != nil {
		t.Fatal(err)
	}
	rec := fmt.Sprintf(`{"type":"user","uuid":"u1","sessionId":%q,"timestamp":"2025-06-01T10:00:00.000Z","cwd":"/home/examiner/ops","message":{"role":"user","content":"run the deploy script"}}`, sessS)
	o := runEngine(t, []bundletest.File{file(sessS+".jsonl", rec),
		{Path: "/home/examiner/.claude.json", Target: "claude-json", Data: legacy}})
	var got []string
	for _, r := range o.rows {
		if r.TurnType == "user" {
			got = append(got, fmt.Sprintf("%s %q %q %s %s", r.Parser, r.TimestampUTC, r.Secondary, r.TimeBasis, r.Text))
		}
	}
	want := []string{
		`claude-code/transcript "2025-06-01T10:00:00.000Z" ""  run the deploy script`,
		`claude-code/legacy-history "" "true" none fix the failing test FAIL src/app.test.ts` + "\n" + `  expected 2` + "\n" + `  received 3`,
		`claude-code/legacy-history "" "true" none /init`,
		`claude-code/legacy-history "" "true" none add a README that explains the build`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("user rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

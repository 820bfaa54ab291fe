package analyze_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// The correlation pass is tested through a test parser whose JSON lines
// say exactly which row to emit, so each test states its rows.

type testRow struct {
	T         string `json:"t"`
	Session   string `json:"s"`
	Parent    string `json:"parent"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	ID        string `json:"id"`
	UseID     string `json:"use"`
	Secondary bool   `json:"sec"`
	Replayed  bool   `json:"replayed"`
	// State, when set, is given as the session's state instead of a row.
	Synced    string `json:"synced"`
	Recovered string `json:"recovered"`
	// StateParent and Forked give the state's parent and fork links.
	StateParent string `json:"state_parent"`
	Forked      string `json:"forked"`
}

func testParsers() []parser.Parser {
	parse := func(ctx context.Context, in *parser.Input, out parser.Sink) error {
		rc, err := in.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
			var r testRow
			if err := json.Unmarshal(line, &r); err != nil {
				out.Problem(n, "bad test row")
				return nil
			}
			if r.Synced != "" || r.Recovered != "" || r.StateParent != "" || r.Forked != "" {
				out.Session(timeline.SessionState{Key: timeline.SessionKey{SessionID: r.Session}, Synced: r.Synced, Recovered: r.Recovered,
					ParentSessionID: r.StateParent, ForkedFrom: r.Forked})
				out.Skip(n, "state_only")
				return nil
			}
			e := timeline.Event{SessionID: r.Session, ParentSessionID: r.Parent, TurnType: timeline.TurnType(r.Type), Text: r.Text,
				RecordID: r.ID, ToolUseID: r.UseID, Secondary: r.Secondary, Replayed: r.Replayed, SourceLine: n, TimeBasis: timeline.TimeNone}
			if r.T != "" {
				e.Time, _ = time.Parse(time.RFC3339, r.T)
				e.TimeBasis = timeline.TimeRecorded
			}
			out.Event(e)
			return nil
		})
	}
	return []parser.Parser{
		parser.New(parser.Spec{ID: "claude-code/test-primary", Agent: "claude-code", Version: 1, Targets: []string{"projects"}}, parse),
		parser.New(parser.Spec{ID: "claude-code/test-history", Agent: "claude-code", Version: 1, Targets: []string{"history"},
			Secondary: &parser.Secondary{Window: time.Hour, TurnTypes: []timeline.TurnType{timeline.User}, Basis: "test"}}, parse),
	}
}

func rowsJSON(rs ...testRow) []byte {
	var b strings.Builder
	for _, r := range rs {
		j, _ := json.Marshal(r)
		b.Write(j)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func primaryFile(user, name string, data []byte) bundletest.File {
	return bundletest.File{Path: "/home/" + user + "/.claude/projects/p/" + name + ".jsonl", Agent: "claude-code", Target: "projects", User: user, Data: data}
}

func historyFile(user string, data []byte) bundletest.File {
	return bundletest.File{Path: "/home/" + user + "/.claude/history.jsonl", Agent: "claude-code", Target: "history", Kind: "history", User: user, Data: data}
}

func runTest(t *testing.T, files []bundletest.File, opts analyze.Options) (*analyze.Summary, []timeline.Row, string) {
	t.Helper()
	p := makeBundle(t, t.TempDir(), "c.tar.zst", "hc", "id-c", files)
	opts.Inputs = append([]string{p}, opts.Inputs...)
	opts.Parsers = testParsers()
	sum, out := run(t, opts)
	return sum, rows(t, out), out
}

func texts(rs []timeline.Row) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.SessionID+":"+r.TurnType+":"+r.Text)
	}
	return strings.Join(s, " | ")
}

// A Claude Code file that copies records with their uuid and timestamp
// under a new sessionId (resume or fork by copy): each record once, in the
// session that first had it by timeline order; the copy's own records stay.
func TestSameRecordIDInTwoSessionsIsOneRow(t *testing.T) {
	orig := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "fix the build", ID: "u1"},
		testRow{T: "2026-05-01T10:00:05Z", Session: "A", Type: "assistant", Text: "done", ID: "a1"})
	copied := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "B", Type: "user", Text: "fix the build", ID: "u1"},
		testRow{T: "2026-05-01T10:00:05Z", Session: "B", Type: "assistant", Text: "done", ID: "a1"},
		testRow{T: "2026-05-01T11:00:00Z", Session: "B", Type: "user", Text: "now the tests", ID: "u2"})
	sum, rs, _ := runTest(t, []bundletest.File{primaryFile("alice", "A", orig), primaryFile("alice", "B", copied)}, analyze.Options{})
	if got := texts(rs); got != "A:user:fix the build | A:assistant:done | B:user:now the tests" {
		t.Fatalf("rows: %s", got)
	}
	if sum.RepeatedByID != 2 || sum.Duplicates != 2 || sum.DuplicateIDs != 0 {
		t.Fatalf("summary %+v", sum)
	}
}

// The same uuid with other content in one file (a planted earlier record
// hiding a later real one): both rows, and a duplicate_id problem.
func TestSameIDOtherContentIsTwoRowsAndAProblem(t *testing.T) {
	data := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "harmless", ID: "u1"},
		testRow{T: "2026-05-01T10:00:01Z", Session: "A", Type: "user", Text: "rm -rf /srv", ID: "u1"})
	sum, rs, out := runTest(t, []bundletest.File{primaryFile("alice", "A", data)}, analyze.Options{})
	if got := texts(rs); got != "A:user:harmless | A:user:rm -rf /srv" {
		t.Fatalf("rows: %s", got)
	}
	ps := problems(t, out)
	if sum.DuplicateIDs != 1 || len(ps) != 1 || ps[0].Kind != "duplicate_id" ||
		ps[0].Message != `record id "u1" has 2 different contents: user "harmless" (at /home/alice/.claude/projects/p/A.jsonl:1) and user "rm -rf /srv" (at /home/alice/.claude/projects/p/A.jsonl:2): all kept` {
		t.Fatalf("problems %+v", ps)
	}
}

// A fork's replayed prefix (Codex forked_from_id, codex #21025) is written
// once, in the parent, although the fork re-stamped it; without the
// parent's file the replayed rows still stand for it.
func TestForkReplayWrittenOnceInParent(t *testing.T) {
	parent := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "P", Type: "user", Text: "list files", ID: "P/1"},
		testRow{T: "2026-05-01T10:00:02Z", Session: "P", Type: "tool_use", Text: "ls", ID: "P/2"})
	fork := rowsJSON(testRow{T: "2026-05-02T09:00:00Z", Session: "P", Type: "user", Text: "list files", ID: "P/1", Replayed: true},
		testRow{T: "2026-05-02T09:00:00Z", Session: "P", Type: "tool_use", Text: "ls", ID: "P/2", Replayed: true},
		testRow{T: "2026-05-02T09:00:10Z", Session: "F", Parent: "P", Type: "user", Text: "now in the fork", ID: "F/1"})
	_, rs, _ := runTest(t, []bundletest.File{primaryFile("alice", "P", parent), primaryFile("alice", "F", fork)}, analyze.Options{})
	if got := texts(rs); got != "P:user:list files | P:tool_use:ls | F:user:now in the fork" || rs[0].TimestampUTC != "2026-05-01T10:00:00.000Z" {
		t.Fatalf("rows: %s (%s)", got, rs[0].TimestampUTC)
	}
	_, rs, _ = runTest(t, []bundletest.File{primaryFile("alice", "F", fork)}, analyze.Options{})
	if got := texts(rs); got != "P:user:list files | P:tool_use:ls | F:user:now in the fork" {
		t.Fatalf("fork alone: %s", got)
	}
}

// A prompt known only from the history file (its session was deleted) is
// kept although another session has a prompt with the same text: pairing
// is within the session and the declared window, one to one.
func TestSecondaryPairsWithinSessionAndWindow(t *testing.T) {
	prim := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "continue", ID: "u1"},
		testRow{T: "2026-05-01T10:30:00Z", Session: "A", Type: "user", Text: "yes", ID: "u2"})
	hist := rowsJSON(
		testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "continue", Secondary: true}, // pairs with u1
		testRow{T: "2026-05-01T10:00:03Z", Session: "A", Type: "user", Text: "continue", Secondary: true}, // u1 is taken: kept
		testRow{T: "2026-05-01T10:00:00Z", Session: "GONE", Type: "user", Text: "yes", Secondary: true},   // other session: kept
		testRow{T: "2026-05-01T13:00:00Z", Session: "A", Type: "user", Text: "yes", Secondary: true},      // outside 1 h: kept
		testRow{T: "2026-05-01T10:31:00Z", Session: "A", Type: "user", Text: " yes\n", Secondary: true},   // pairs with u2 (ends trimmed)
		testRow{T: "2026-05-01T10:31:00Z", Session: "", Type: "user", Text: "continue", Secondary: true})  // no session: u1 taken, nothing left: kept
	sum, rs, out := runTest(t, []bundletest.File{primaryFile("alice", "A", prim), historyFile("alice", hist)}, analyze.Options{})
	var got []string
	for _, r := range rs {
		got = append(got, fmt.Sprintf("%s %s %q sec=%s", r.TimestampUTC[11:19], r.SessionID, r.Text, r.Secondary))
	}
	// history.jsonl sorts before projects/p/A.jsonl at the same instant.
	want := []string{`10:00:00 GONE "yes" sec=true`, `10:00:00 A "continue" sec=`, `10:00:03 A "continue" sec=true`,
		`10:30:00 A "yes" sec=`, `10:31:00  "continue" sec=true`, `13:00:00 A "yes" sec=true`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sum.SecondaryPaired != 2 {
		t.Fatalf("paired %d", sum.SecondaryPaired)
	}
	var sess []timeline.Session
	readLines(t, filepath.Join(out, analyze.SessionsJSONL), &sess)
	rec := map[string]string{}
	for _, s := range sess {
		rec[s.SessionID] = s.Recovered
	}
	if rec["A"] != "partial" || rec["GONE"] != "yes" {
		t.Fatalf("recovered %v", rec)
	}
}

// Recovered: only secondary rows = yes, primary rows only = no for an agent
// with secondary sources, and inventory counts recovered sessions.
func TestRecoveredStateAndInventory(t *testing.T) {
	prim := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "KEPT", Type: "user", Text: "hello", ID: "u1"})
	hist := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "KEPT", Type: "user", Text: "hello", Secondary: true},
		testRow{T: "2026-05-01T09:00:00Z", Session: "DELETED", Type: "user", Text: "rm -rf logs/", Secondary: true})
	_, _, out := runTest(t, []bundletest.File{primaryFile("alice", "KEPT", prim), historyFile("alice", hist)}, analyze.Options{})
	var sess []timeline.Session
	readLines(t, filepath.Join(out, analyze.SessionsJSONL), &sess)
	if len(sess) != 2 || sess[0].SessionID != "DELETED" || sess[0].Recovered != "yes" || sess[1].SessionID != "KEPT" || sess[1].Recovered != "no" {
		t.Fatalf("sessions %+v", sess)
	}
	var inv analyze.Inventory
	b, _ := os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
	if err := json.Unmarshal(b, &inv); err != nil {
		t.Fatal(err)
	}
	if len(inv.Agents) != 1 || inv.Agents[0].RecoveredSess != 1 || inv.Agents[0].PartialSess != 0 {
		t.Fatalf("inventory %+v", inv.Agents)
	}
}

// --match pairs a call and its result only within one session: matching
// bob's result does not pull alice's call that reused the call id.
func TestMatchPairsWithinSession(t *testing.T) {
	alice := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "SA", Type: "tool_use", Text: "ls", UseID: "call_mock1", ID: "SA/1"},
		testRow{T: "2026-05-01T10:00:01Z", Session: "SA", Type: "tool_result", Text: "a.txt", UseID: "call_mock1", ID: "SA/2"})
	bob := rowsJSON(testRow{T: "2026-05-01T11:00:00Z", Session: "SB", Type: "tool_use", Text: "cat secrets", UseID: "call_mock1", ID: "SB/1"},
		testRow{T: "2026-05-01T11:00:01Z", Session: "SB", Type: "tool_result", Text: "hunter2", UseID: "call_mock1", ID: "SB/2"})
	_, rs, _ := runTest(t, []bundletest.File{primaryFile("alice", "SA", alice), primaryFile("bob", "SB", bob)}, analyze.Options{Match: regexp.MustCompile("hunter2")})
	if got := texts(rs); got != "SB:tool_use:cat secrets | SB:tool_result:hunter2" {
		t.Fatalf("rows: %s", got)
	}
}

// Session state merges in file order whatever the scheduling: the first
// value is kept, a conflicting one is a problem; recovered takes the
// strongest value.
func TestSessionStateMergeIsFixedAndReportsConflicts(t *testing.T) {
	a := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "S", Type: "user", Text: "x", ID: "u1"}, testRow{Session: "S", Synced: "yes"})
	b := rowsJSON(testRow{Session: "S", Synced: "no", Recovered: "yes"})
	for _, jobs := range []int{1, 2} {
		_, _, out := runTest(t, []bundletest.File{primaryFile("alice", "a", a), primaryFile("alice", "b", b)}, analyze.Options{Jobs: jobs})
		var sess []timeline.Session
		readLines(t, filepath.Join(out, analyze.SessionsJSONL), &sess)
		if len(sess) != 1 || sess[0].Synced != "yes" || sess[0].Recovered != "yes" {
			t.Fatalf("jobs %d: sessions %+v", jobs, sess)
		}
		ps := problems(t, out)
		if len(ps) != 1 || ps[0].Kind != "state_conflict" || ps[0].Message != `session S: synced recorded as "yes" and as "no"; kept "yes" (first in file order)` {
			t.Fatalf("jobs %d: problems %+v", jobs, ps)
		}
	}
}

// Parent links are decided from what every file said. The probe of issue
// 25: rows naming parents P1 and P2 and a state naming P3 gave the
// session parent P3 and no problem row; now it is P3 (a session state is
// the parser's link record) with a state_conflict naming all three, each
// row keeping the parent it names. Rows alone naming two parents keep the
// first in timeline order, with the problem; agreeing files give none.
func TestParentConflictIsAProblemNamingEveryValue(t *testing.T) {
	a := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "S", Parent: "P1", Type: "user", Text: "x", ID: "u1"},
		testRow{T: "2026-05-01T10:00:01Z", Session: "S", Parent: "P1", Type: "assistant", Text: "y", ID: "a1"})
	b := rowsJSON(testRow{T: "2026-05-01T10:00:02Z", Session: "S", Parent: "P2", Type: "user", Text: "z", ID: "u2"})
	st := rowsJSON(testRow{Session: "S", StateParent: "P3", Forked: "F0"})
	pa, pb, ps := "/home/alice/.claude/projects/p/a.jsonl", "/home/alice/.claude/projects/p/b.jsonl", "/home/alice/.claude/projects/p/c.jsonl"
	for name, c := range map[string]struct {
		files        []bundletest.File
		parent, fork string
		problem      string
	}{
		"rows P1, P2 and a state P3": {[]bundletest.File{primaryFile("alice", "a", a), primaryFile("alice", "b", b), primaryFile("alice", "c", st)}, "P3", "F0",
			`session S: parent_session_id recorded as "P1" (a row of ` + pa + `:1), "P2" (a row of ` + pb + `:1) and "P3" (the session state from ` + ps + `); kept "P3" (the session state's); every row keeps the parent it names`},
		"rows P1 and P2": {[]bundletest.File{primaryFile("alice", "a", a), primaryFile("alice", "b", b)}, "P1", "",
			`session S: parent_session_id recorded as "P1" (a row of ` + pa + `:1) and "P2" (a row of ` + pb + `:1); kept "P1" (the first row's in timeline order); every row keeps the parent it names`},
		"rows P1 and a state P1": {[]bundletest.File{primaryFile("alice", "a", a), primaryFile("alice", "c", rowsJSON(testRow{Session: "S", StateParent: "P1"}))}, "P1", "", ""},
		"a state alone":          {[]bundletest.File{primaryFile("alice", "a", rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "S", Type: "user", Text: "x", ID: "u1"})), primaryFile("alice", "c", st)}, "P3", "F0", ""},
	} {
		for _, jobs := range []int{1, 2} {
			_, rs, out := runTest(t, c.files, analyze.Options{Jobs: jobs})
			var sess []timeline.Session
			readLines(t, filepath.Join(out, analyze.SessionsJSONL), &sess)
			if len(sess) != 1 || sess[0].ParentSessionID != c.parent || sess[0].ForkedFrom != c.fork {
				t.Fatalf("%s, jobs %d: sessions %+v", name, jobs, sess)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.ParentSessID)
			}
			if name == "rows P1, P2 and a state P3" && strings.Join(got, " ") != "P1 P1 P2" {
				t.Fatalf("%s: rows' parents %v", name, got)
			}
			ps := problems(t, out)
			var msgs []string
			for _, p := range ps {
				if p.Kind != "state_conflict" {
					t.Fatalf("%s: problem %+v", name, p)
				}
				msgs = append(msgs, p.Message)
			}
			want := []string{}
			if c.problem != "" {
				want = []string{c.problem}
			}
			if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s, jobs %d: problems\n%s\nwant\n%s", name, jobs, strings.Join(msgs, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// The same evidence given twice (a bundle and its extracted copy; two
// collections of one host) writes each record once, ids or not.
func TestSameEvidenceTwiceWritesEachRecordOnce(t *testing.T) {
	data := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "with id", ID: "u1"},
		testRow{T: "2026-05-01T10:00:01Z", Session: "A", Type: "assistant", Text: "no id"},
		testRow{Session: "A", Type: "system", Text: "undated, no id"})
	files := []bundletest.File{primaryFile("alice", "A", data)}
	p := makeBundle(t, t.TempDir(), "one.tar.zst", "hc", "id-same", files)
	ext := filepath.Join(t.TempDir(), "extracted")
	extract(t, p, ext)
	other := makeBundle(t, t.TempDir(), "two.tar.zst", "hc", "id-other", files)
	for name, inputs := range map[string][]string{"bundle+extracted": {p, ext}, "two collections": {p, other}} {
		sum, out := run(t, analyze.Options{Inputs: inputs, Parsers: testParsers()})
		if got := texts(rows(t, out)); got != "A:user:with id | A:assistant:no id | A:system:undated, no id" {
			t.Fatalf("%s: rows %s", name, got)
		}
		if sum.Duplicates != 3 || sum.RepeatedByID != 1 || sum.RepeatedNoID != 2 {
			t.Fatalf("%s: summary %+v", name, sum)
		}
	}
}

func readLines(t *testing.T, path string, v *[]timeline.Session) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var s timeline.Session
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatal(err)
		}
		*v = append(*v, s)
	}
}

// Timesketch never gets an empty datetime: an undated row carries the
// epoch and a timestamp_desc that says no time was recorded.
func TestTimesketchUndatedRow(t *testing.T) {
	data := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "dated", ID: "u1"},
		testRow{Session: "A", Type: "system", Text: "undated"})
	p := makeBundle(t, t.TempDir(), "ts.tar.zst", "hc", "id-ts", []bundletest.File{primaryFile("alice", "A", data)})
	_, out := run(t, analyze.Options{Inputs: []string{p}, Parsers: testParsers(), Format: "timesketch"})
	b, err := os.ReadFile(filepath.Join(out, analyze.TimelineTimesketch))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%v|%v|%v", r["datetime"], r["timestamp_desc"], r["timestamp_utc"]))
	}
	want := "2026-05-01T10:00:00.000Z|Agent event time|2026-05-01T10:00:00.000Z\n1970-01-01T00:00:00.000Z|No time recorded (time_basis none)|"
	if strings.Join(got, "\n") != want {
		t.Fatalf("timesketch rows:\n%s", strings.Join(got, "\n"))
	}
}

// rowsSeen is a RowConsumer keeping what it was handed; fail, when set,
// is returned at that row.
type rowsSeen struct {
	ns   []int64
	rows []timeline.Row
	fail int64
}

func (r *rowsSeen) Row(n int64, row *timeline.Row) error {
	if n == r.fail {
		return fmt.Errorf("consumer stopped at row %d", n)
	}
	r.ns = append(r.ns, n)
	r.rows = append(r.rows, *row)
	return nil
}

// Options.Rows sees every written row once, in timeline order, numbered
// as timeline.jsonl's lines, and equal to what those lines decode to
// (invalid UTF-8 included), whatever the formats; more rows than one
// batch of the pipe cross it; a consumer's error fails the run.
func TestRowConsumerSeesTheWrittenTimeline(t *testing.T) {
	var lines []testRow
	for i := 0; i < 1300; i++ {
		lines = append(lines, testRow{T: fmt.Sprintf("2026-05-01T10:%02d:%02dZ", i/60%60, i%60), Session: "S", Type: "user", Text: fmt.Sprintf("prompt %d \xff", i), ID: fmt.Sprintf("u%d", i)})
	}
	lines = append(lines, testRow{Session: "S", Type: "system", Text: "undated"})
	files := []bundletest.File{primaryFile("alice", "a", rowsJSON(lines...))}
	for _, format := range []string{"jsonl", "csv,jsonl", "parquet,jsonl"} {
		seen := &rowsSeen{}
		sum, rs, _ := runTest(t, files, analyze.Options{Format: format, Rows: seen})
		if len(seen.rows) != len(rs) || sum.Events != len(rs) || len(rs) != 1301 {
			t.Fatalf("%s: consumer saw %d rows, timeline has %d (summary %d)", format, len(seen.rows), len(rs), sum.Events)
		}
		for i := range rs {
			if seen.ns[i] != int64(i+1) || seen.rows[i] != rs[i] {
				t.Fatalf("%s: row %d: n %d\n got %+v\nwant %+v", format, i+1, seen.ns[i], seen.rows[i], rs[i])
			}
		}
	}
	p := makeBundle(t, t.TempDir(), "c.tar.zst", "hc", "id-c", files)
	_, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{p}, OutDir: filepath.Join(t.TempDir(), "out"), Parsers: testParsers(),
		TempDir: t.TempDir(), Rows: &rowsSeen{fail: 700}})
	if err == nil || !strings.Contains(err.Error(), "consumer stopped at row 700") {
		t.Fatalf("a failing consumer: %v", err)
	}
}

// TestFilteredRepeatCounts: a filtered run's repeat counts (the summary
// line and run.json) are those of the rows its filters kept, not of every
// row read (issue 27: --agent claude-code said "repeats merged: 105", the
// whole case's figure). Session A repeats 2 rows by record id (its copy)
// and 1 history prompt; session B repeats 1 row by record id and 2
// history prompts; identity and pairing still run over every row.
func TestFilteredRepeatCounts(t *testing.T) {
	a := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "list files", ID: "A/1"},
		testRow{T: "2026-05-01T10:00:02Z", Session: "A", Type: "tool_use", Text: "ls", ID: "A/2"})
	b := rowsJSON(testRow{T: "2026-05-01T11:00:00Z", Session: "B", Type: "user", Text: "show disk", ID: "B/1"},
		testRow{T: "2026-05-01T11:05:00Z", Session: "B", Type: "user", Text: "and memory", ID: "B/2"})
	bCopy := rowsJSON(testRow{T: "2026-05-01T11:00:00Z", Session: "B", Type: "user", Text: "show disk", ID: "B/1"})
	hist := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "list files", Secondary: true},
		testRow{T: "2026-05-01T11:00:00Z", Session: "B", Type: "user", Text: "show disk", Secondary: true},
		testRow{T: "2026-05-01T11:05:00Z", Session: "B", Type: "user", Text: "and memory", Secondary: true})
	files := []bundletest.File{primaryFile("alice", "A", a), primaryFile("alice", "A-copy", a), primaryFile("alice", "B", b),
		primaryFile("alice", "B-copy", bCopy), historyFile("alice", hist)}
	for _, c := range []struct {
		name                        string
		opts                        analyze.Options
		rows, byID, paired, noIDRep int
	}{
		{"unfiltered", analyze.Options{}, 4, 3, 3, 0},
		{"--session A", analyze.Options{Sessions: []string{"A"}}, 2, 2, 1, 0},
		{"--session B", analyze.Options{Sessions: []string{"B"}}, 2, 1, 2, 0},
		{"--since 11:00", analyze.Options{Since: time.Date(2026, 5, 1, 11, 0, 0, 0, time.UTC)}, 2, 1, 2, 0},
		{"--turn-type tool_use", analyze.Options{TurnTypes: []string{"tool_use"}}, 1, 1, 0, 0},
		{"--match disk", analyze.Options{Match: regexp.MustCompile("disk")}, 1, 1, 1, 0},
		{"--user alice (keeps all)", analyze.Options{Users: []string{"alice"}}, 4, 3, 3, 0},
	} {
		sum, rs, out := runTest(t, files, c.opts)
		if len(rs) != c.rows || sum.RepeatedByID != c.byID || sum.SecondaryPaired != c.paired || sum.RepeatedNoID != c.noIDRep {
			t.Errorf("%s: %d rows, %d by record id, %d paired, %d without id; want %d, %d, %d, %d", c.name, len(rs), sum.RepeatedByID,
				sum.SecondaryPaired, sum.RepeatedNoID, c.rows, c.byID, c.paired, c.noIDRep)
		}
		want := fmt.Sprintf("repeats merged: %d (%d by record id, 0 without an id by full value, %d secondary rows as their primary row)", c.byID+c.paired, c.byID, c.paired)
		if got := analyze.SummaryLines(sum); !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("%s: summary %q, want the line %q", c.name, got, want)
		}
		var rec analyze.RunRecord
		bs, err := os.ReadFile(filepath.Join(out, analyze.RunJSON))
		if err != nil || json.Unmarshal(bs, &rec) != nil {
			t.Fatalf("%s: run.json: %v", c.name, err)
		}
		if s := rec.Summary; s.RepeatsMerged != c.byID+c.paired || s.RepeatedByID != c.byID || s.SecondaryPaired != c.paired || s.Rows != c.rows {
			t.Errorf("%s: run.json summary %+v", c.name, s)
		}
	}
}

// rowsDoneSeen is a RowConsumer that is told when the rows end.
type rowsDoneSeen struct {
	rowsSeen
	dir      string
	done     int
	rowsAt   int
	sessions bool
}

func (r *rowsDoneSeen) RowsDone() error {
	r.done++
	r.rowsAt = len(r.rows)
	_, err := os.Stat(filepath.Join(r.dir, analyze.SessionsJSONL))
	r.sessions = err == nil
	return nil
}

// The output pass tells a consumer that implements outputs.RowsDone once,
// after its last row and before sessions.jsonl is written (so the
// findings' per-session state is released before the sessions and the
// inventory are built).
func TestRowsDoneAfterTheLastRow(t *testing.T) {
	var lines []testRow
	for i := 0; i < 600; i++ {
		lines = append(lines, testRow{T: fmt.Sprintf("2026-05-01T10:%02d:%02dZ", i/60%60, i%60), Session: "S", Type: "user", Text: fmt.Sprintf("prompt %d", i), ID: fmt.Sprintf("u%d", i)})
	}
	p := makeBundle(t, t.TempDir(), "c.tar.zst", "hc", "id-c", []bundletest.File{primaryFile("alice", "a", rowsJSON(lines...))})
	out := filepath.Join(t.TempDir(), "out")
	seen := &rowsDoneSeen{dir: out}
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{p}, OutDir: out, Parsers: testParsers(), TempDir: t.TempDir(), Rows: seen}); err != nil {
		t.Fatal(err)
	}
	if seen.done != 1 || seen.rowsAt != 600 || len(seen.rows) != 600 || seen.sessions {
		t.Fatalf("RowsDone called %d times, after %d of %d rows, sessions.jsonl already written: %v", seen.done, seen.rowsAt, len(seen.rows), seen.sessions)
	}
}

package analyze_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// statuses renders a run's input accounting as "status input: reason"
// lines, inputs relative to dir.
func statuses(dir string, sts []analyze.InputStatus) []string {
	var out []string
	for _, s := range sts {
		l := s.Status + " " + s.Kind + " " + strings.TrimPrefix(s.Input, dir+"/")
		if s.Reason != "" {
			l += ": " + strings.ReplaceAll(s.Reason, dir+"/", "")
		}
		out = append(out, l)
	}
	return out
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\n got:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// runRecord reads run.json.
func runRecord(t *testing.T, out string) analyze.RunRecord {
	return readJSON[analyze.RunRecord](t, filepath.Join(out, analyze.RunJSON))
}

// readJSON reads the JSON document at p into a T.
func readJSON[T any](t *testing.T, p string) T {
	t.Helper()
	var v T
	b, err := os.ReadFile(p)
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFolderOfEvidenceAccountsForEveryEntry is issue 22's first case: a
// folder of bundles where one is damaged (first byte zeroed), one empty (a
// failed copy), one a plain tar, with a sidecar whose bundle is missing, a
// sidecar beside its bundle, an extracted collection whose bundle.json is
// cut, and a file that is not evidence. Each evidence entry is listed with
// what became of it, in the summary, problems.jsonl, run.json and the
// inventory (the report's source list); the others are still read.
func TestFolderOfEvidenceAccountsForEveryEntry(t *testing.T) {
	dir := t.TempDir()
	good := makeBundle(t, dir, "good.tar.zst", "host-a", "0190aaaa-0000-7000-8000-000000000001", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=0")})
	b, _ := os.ReadFile(good)
	damaged := append([]byte{0}, b[1:]...)
	os.WriteFile(filepath.Join(dir, "damaged.tar.zst"), damaged, 0o644)
	os.WriteFile(filepath.Join(dir, "empty.tar.zst"), nil, 0o644)
	tarHead := make([]byte, 1024)
	copy(tarHead[257:], "ustar\x0000")
	os.WriteFile(filepath.Join(dir, "plain.tar"), tarHead, 0o644)
	os.WriteFile(filepath.Join(dir, "lost.tar.zst.sha256"), []byte(strings.Repeat("0", 64)+"  lost.tar.zst\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("chain of custody form"), 0o644)
	ext := filepath.Join(dir, "extracted")
	extract(t, makeBundle(t, t.TempDir(), "x.tar.zst", "host-x", "0190cccc-0000-7000-8000-000000000003", []bundletest.File{claudeFile("bob", "bbbb2222-0000-4000-8000-000000000002", "2026-05-02", "ls", "a")}), ext)
	hb, _ := os.ReadFile(filepath.Join(ext, "bundle.json"))
	os.WriteFile(filepath.Join(ext, "bundle.json"), hb[:len(hb)/2], 0o644)

	sum, out := run(t, analyze.Options{Inputs: []string{dir}})
	sameLines(t, "inputs", statuses(dir, sum.Inputs), []string{
		"unusable bundle damaged.tar.zst: does not start with a zstd frame (first bytes 00 b5 2f fd, where a bundle starts 28 b5 2f fd): damaged, or not a bundle",
		"unusable bundle empty.tar.zst: empty (0 bytes): no bundle can be read from it (a failed or unfinished copy?)",
		"unusable extracted extracted: extracted collection whose bundle.json is damaged (" + itoa(len(hb)/2) + " bytes: bundle: bundle.json: unexpected end of JSON input): its host, bundle id and format version are unknown, so none of its files is read",
		"read bundle good.tar.zst",
		"unusable sidecar lost.tar.zst.sha256: a .sha256 sidecar whose bundle lost.tar.zst is not beside it: the bundle it vouches for is missing",
		"unusable bundle plain.tar: a tar archive without zstd compression, not a bundle (a bundle is a tar stream compressed with zstd): compress it with zstd, or extract it and give the folder",
	})
	if sum.Failed != 5 || sum.Sources != 2 || sum.Events == 0 {
		t.Fatalf("failed %d sources %d rows %d", sum.Failed, sum.Sources, sum.Events)
	}
	var unusable []string
	for _, p := range problems(t, out) {
		if p.Kind == analyze.KindUnusableInput {
			unusable = append(unusable, strings.TrimPrefix(p.Input, dir+"/"))
		}
	}
	sameLines(t, "unusable_input problems", unusable, []string{"damaged.tar.zst", "empty.tar.zst", "extracted", "lost.tar.zst.sha256", "plain.tar"})
	rec := runRecord(t, out)
	if rec.Summary.Unusable != 5 || rec.Summary.InputsRead != 1 || len(rec.InputsGiven) != 6 {
		t.Fatalf("run.json summary %+v, %d inputs given", rec.Summary, len(rec.InputsGiven))
	}
	var srcs []string
	for _, s := range rec.Inputs {
		srcs = append(srcs, strings.TrimPrefix(s.Input, dir+"/")+" "+s.Verified+" "+map[bool]string{true: "unusable", false: "read"}[s.Unusable != ""])
	}
	sameLines(t, "run.json inputs", srcs, []string{"damaged.tar.zst none unusable", "empty.tar.zst none unusable", "extracted none unusable", "good.tar.zst all read", "lost.tar.zst.sha256 none unusable", "plain.tar none unusable"})
	lines := analyze.SummaryLines(sum)
	if lines[0] != "inputs: 1 read, 5 unusable" || !strings.HasPrefix(lines[1], "  unusable: "+filepath.Join(dir, "damaged.tar.zst")+": does not start") {
		t.Fatalf("summary lines %q", lines)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestExtractedShapeIsNeverALooseHome: a folder with files/home/... (or a
// manifest.jsonl) but no bundle.json is an unusable extracted collection,
// not an empty loose home read as 0 rows.
func TestExtractedShapeIsNeverALooseHome(t *testing.T) {
	ext := filepath.Join(t.TempDir(), "x")
	extract(t, makeBundle(t, t.TempDir(), "x.tar.zst", "host-x", "0190cccc-0000-7000-8000-000000000003", []bundletest.File{claudeFile("bob", sidA, "2026-05-02", "ls", "a")}), ext)
	os.Remove(filepath.Join(ext, "bundle.json"))
	_, _, err := timelineErr(t, analyze.Options{Inputs: []string{ext}})
	want := "extracted collection without bundle.json: its host, bundle id and format version are unknown, so none of its files is read"
	if !errors.Is(err, analyze.ErrNoInput) || !strings.Contains(err.Error(), want) {
		t.Fatalf("timeline: %v", err)
	}
	os.Remove(filepath.Join(ext, "manifest.jsonl"))
	os.Remove(filepath.Join(ext, "log.jsonl"))
	if _, _, err := timelineErr(t, analyze.Options{Inputs: []string{ext}}); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("files/home/... alone: %v", err)
	}
	// A home that merely has a files folder of its own stays a home.
	home := filepath.Join(t.TempDir(), "alice")
	os.MkdirAll(filepath.Join(home, "files", "taxes"), 0o755)
	os.MkdirAll(filepath.Join(home, ".claude", "projects", "-home-alice-proj"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "projects", "-home-alice-proj", sidA+".jsonl"), claudeSession(sidA, "/home/alice/proj", "2026-05-01", "id", "x"), 0o644)
	sum, _ := run(t, analyze.Options{Inputs: []string{home}})
	if sum.Events == 0 || sum.Failed != 0 || statuses(filepath.Dir(home), sum.Inputs)[0] != "read loose alice" {
		t.Fatalf("home with files/: %d rows, %q", sum.Events, statuses(filepath.Dir(home), sum.Inputs))
	}
}

// TestSameBundleTwiceReadOnce: the same path twice, a link to it and a
// byte-for-byte copy are each a duplicate_input problem, read once; a
// sidecar given with its bundle (a shell glob) is accounted for, not
// unusable.
func TestSameBundleTwiceReadOnce(t *testing.T) {
	dir := t.TempDir()
	good := makeBundle(t, dir, "good.tar.zst", "host-a", "0190aaaa-0000-7000-8000-000000000001", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=0")})
	b, _ := os.ReadFile(good)
	cp := filepath.Join(dir, "copy.tar.zst")
	os.WriteFile(cp, b, 0o644)
	ln := filepath.Join(dir, "link.tar.zst")
	os.Symlink(good, ln)
	os.WriteFile(good+".sha256", []byte(strings.Repeat("0", 64)+"  good.tar.zst\n"), 0o644)
	one, _ := run(t, analyze.Options{Inputs: []string{good}})
	sum, out := run(t, analyze.Options{Inputs: []string{good, good, ln, cp, good + ".sha256"}})
	sameLines(t, "inputs", statuses(dir, sum.Inputs), []string{
		"duplicate bundle copy.tar.zst: the same bundle as good.tar.zst (the same bytes, sha256 " + sha(string(b)) + "): read once",
		"read bundle good.tar.zst",
		"duplicate bundle good.tar.zst: the same input as good.tar.zst: read once",
		"sidecar sidecar good.tar.zst.sha256: checked with its bundle good.tar.zst",
		"duplicate bundle link.tar.zst: the same input as good.tar.zst: read once",
	})
	if sum.Failed != 0 || sum.Sources != 1 || sum.Events != one.Events || sum.Duplicates != 0 {
		t.Fatalf("failed %d sources %d rows %d (alone %d) repeats %d", sum.Failed, sum.Sources, sum.Events, one.Events, sum.Duplicates)
	}
	n := 0
	for _, p := range problems(t, out) {
		if p.Kind == analyze.KindDuplicateInput {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d duplicate_input problems, want 3", n)
	}
}

// TestSessionPrefix is issue 22 item 8 / issue 27: --session takes an
// unambiguous start of an id as git does; an ambiguous one fails naming
// the candidates; one no session has fails with the nearest ids, never
// silently 0 rows.
func TestSessionPrefix(t *testing.T) {
	dir := t.TempDir()
	const a1, a2, b1 = "917b3303-0000-4000-8000-000000000001", "917b3399-0000-4000-8000-000000000002", "bbbb2222-0000-4000-8000-000000000003"
	makeBundle(t, dir, "a.tar.zst", "host-a", "0190aaaa-0000-7000-8000-000000000001", []bundletest.File{
		claudeFile("alice", a1, "2026-05-01", "id", "uid=0"), claudeFile("alice", a2, "2026-05-02", "ls", "x"), claudeFile("alice", b1, "2026-05-03", "pwd", "/")})
	sessionsOf := func(out string) []string {
		seen := map[string]bool{}
		for _, r := range rows(t, out) {
			seen[r.SessionID] = true
		}
		var ids []string
		for id := range seen {
			ids = append(ids, id)
		}
		return ids
	}
	for _, p := range []string{"917b3303", "917b3303-0000-4000-8000-000000000001", "917b3303-0000"} {
		_, out := run(t, analyze.Options{Inputs: []string{dir}, Sessions: []string{p}})
		if got := sessionsOf(out); len(got) != 1 || got[0] != a1 {
			t.Fatalf("--session %s: sessions %v", p, got)
		}
	}
	_, out := run(t, analyze.Options{Inputs: []string{dir}, Sessions: []string{"917b3399", "bbbb"}})
	if got := sessionsOf(out); len(got) != 2 {
		t.Fatalf("two prefixes: sessions %v", got)
	}
	_, _, err := timelineErr(t, analyze.Options{Inputs: []string{dir}, Sessions: []string{"917b33"}})
	if err == nil || err.Error() != "--session 917b33 is ambiguous: 2 sessions start with it: "+a1+", "+a2+" (give more of the id)" {
		t.Fatalf("ambiguous prefix: %v", err)
	}
	_, _, err = timelineErr(t, analyze.Options{Inputs: []string{dir}, Sessions: []string{"917c"}})
	if err == nil || err.Error() != "--session 917c: no session id starts with it (the input, as the other filters keep it, holds 3 sessions; nearest: "+a1+", "+a2+")" {
		t.Fatalf("prefix of no session: %v", err)
	}
	// A time filter does not narrow the candidates (it applies after the
	// session check): a prefix is ambiguous by the ids the input holds.
	if _, _, err = timelineErr(t, analyze.Options{Inputs: []string{dir}, Sessions: []string{"917b33"}, Until: time.Date(2026, 5, 1, 23, 0, 0, 0, time.UTC)}); err == nil || !strings.Contains(err.Error(), "is ambiguous") {
		t.Fatalf("prefix ambiguous whatever the time filter: %v", err)
	}
}

// TestOutputInsideAnExtractedEntryRefused: -o inside an extracted
// collection found in a folder of evidence is refused, as it is for one
// given itself (the folder itself may hold the outputs).
func TestOutputInsideAnExtractedEntryRefused(t *testing.T) {
	dir := t.TempDir()
	p := makeBundle(t, dir, "a.tar.zst", "host-a", "0190aaaa-0000-7000-8000-000000000001", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=0")})
	extract(t, p, filepath.Join(dir, "x"))
	_, _, err := timelineErr(t, analyze.Options{Inputs: []string{dir}, OutDir: filepath.Join(dir, "x", "out")})
	if !errors.Is(err, analyze.ErrOutputInEvidence) {
		t.Fatalf("-o inside an extracted entry: %v", err)
	}
	if _, _, err := timelineErr(t, analyze.Options{Inputs: []string{dir}, OutDir: filepath.Join(dir, "out")}); err != nil {
		t.Fatalf("-o in the folder of evidence: %v", err)
	}
}

// TestFilteredSummaryNamesOnlyWhatItKept: --agent claude-code names only
// claude-code in the summary (issue 27: other agents were listed at "(0
// events)"); unfiltered, every agent is named.
func TestFilteredSummaryNamesOnlyWhatItKept(t *testing.T) {
	const frozen = "../../bundle/testdata/v2/fake-home.tar.zst"
	all, _ := run(t, analyze.Options{Inputs: []string{frozen}})
	one, out := run(t, analyze.Options{Inputs: []string{frozen}, Agents: []string{"claude-code"}})
	agentsLine := func(s *analyze.Summary) string {
		for _, l := range analyze.SummaryLines(s) {
			if strings.HasPrefix(l, "agents") {
				return l
			}
		}
		return ""
	}
	if got := agentsLine(all); got != "agents: claude-code 8 rows, codex-cli 2 rows" {
		t.Errorf("unfiltered: %q", got)
	}
	if got := agentsLine(one); got != "agents: claude-code 8 rows" {
		t.Errorf("--agent claude-code: %q", got)
	}
	got := analyze.SummaryLines(one)
	want := []string{"inputs: 1 read, 0 unusable", "agents: claude-code 8 rows", "rows written: 8 (1 undated), in 2 sessions",
		"repeats merged: 0 (0 by record id, 0 without an id by full value, 0 secondary rows as their primary row)", "problems: " + itoa(one.Problems) + " (problems.jsonl)"}
	sameLines(t, "summary", got, want)
	if rec := runRecord(t, out); rec.Summary.Rows != 8 || rec.Summary.InputsRead != 1 || rec.Summary.RepeatsMerged != 0 || rec.Summary.Problems != one.Problems {
		t.Errorf("run.json summary %+v", rec.Summary)
	}
}

// TestGivenSidecarWithoutBundle: a .sha256 given whose bundle is not
// beside it is unusable; a damaged bundle given by name is unusable with
// its first bytes; the run goes on with the good one.
func TestGivenSidecarWithoutBundle(t *testing.T) {
	dir := t.TempDir()
	good := makeBundle(t, dir, "good.tar.zst", "host-a", "0190aaaa-0000-7000-8000-000000000001", []bundletest.File{claudeFile("alice", sidA, "2026-05-01", "id", "uid=0")})
	lost := filepath.Join(dir, "lost.tar.zst.sha256")
	os.WriteFile(lost, []byte(strings.Repeat("0", 64)+"  lost.tar.zst\n"), 0o644)
	cut := filepath.Join(dir, "cut.tzst")
	os.WriteFile(cut, []byte("PK\x03\x04 a zip"), 0o644)
	sum, _ := run(t, analyze.Options{Inputs: []string{good, lost, cut}})
	sameLines(t, "inputs", statuses(dir, sum.Inputs), []string{
		"unusable bundle cut.tzst: does not start with a zstd frame (first bytes 50 4b 03 04, where a bundle starts 28 b5 2f fd): damaged, or not a bundle",
		"read bundle good.tar.zst",
		"unusable sidecar lost.tar.zst.sha256: a .sha256 sidecar whose bundle lost.tar.zst is not beside it: the bundle it vouches for is missing",
	})
	if sum.Failed != 2 || sum.Events == 0 {
		t.Fatalf("failed %d rows %d", sum.Failed, sum.Events)
	}
}

// TestNoUsableInputStillWritesOutputs: a run whose every input is
// unusable (a damaged bundle, a folder that is an extracted collection
// without its header) returns ErrNoInput and still writes its outputs:
// no rows, a problem row naming each input and why, run.json listing
// each as unusable. A fleet shard of damaged bundles is then accounted
// for, never a missing folder.
func TestNoUsableInputStillWritesOutputs(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad_doubleagent.tar.zst")
	if err := os.WriteFile(bad, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{bad}})
	if !errors.Is(err, analyze.ErrNoInput) || sum == nil || sum.Events != 0 || sum.Failed != 1 {
		t.Fatalf("timeline: %v, summary %+v", err, sum)
	}
	for _, f := range []string{"timeline.jsonl", "sessions.jsonl"} {
		if b, err := os.ReadFile(filepath.Join(out, f)); err != nil || len(b) != 0 {
			t.Errorf("%s: %q %v, want empty", f, b, err)
		}
	}
	want := "unusable_input " + ": does not start with a zstd frame (first bytes 67 61 72 62, where a bundle starts 28 b5 2f fd): damaged, or not a bundle"
	if got := problemSet(problems(t, out)); len(got) != 1 || got[0] != want {
		t.Fatalf("problems %q, want %q", got, want)
	}
	rec := runRecord(t, out)
	if len(rec.InputsGiven) != 1 || rec.InputsGiven[0].Input != bad || rec.InputsGiven[0].Status != analyze.InputUnusable {
		t.Fatalf("run.json inputs %+v", rec.InputsGiven)
	}
}

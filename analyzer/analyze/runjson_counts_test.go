//go:build unix

package analyze_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestRunJSONCountsAreTheRows: every per-input problems count in run.json
// (its inputs, which inventory.json shares) is the number of rows of that
// input in problems.jsonl, and every row of problems.jsonl belongs to an
// input run.json lists: over fixture roots of real agents read in place
// and a hostile folder (a damaged bundle, a bundle cut short, an empty
// one, a FIFO and a loop of links named like bundles, beside a good one).
func TestRunJSONCountsAreTheRows(t *testing.T) {
	roots := filepath.Join("..", "..", "fixtures", "roots")
	dir := t.TempDir()
	good := makeBundle(t, dir, "good.tar.zst", "host-a", "0190aaaa-0000-7000-8000-000000000001", []bundletest.File{
		claudeFile("alice", sidA, "2026-05-01", "id", "uid=0"),
		claudeFile("alice", "aaaa1111-0000-4000-8000-000000000009", "2026-05-02", "ls", "a.txt"),
	})
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cutBundle := makeBundle(t, t.TempDir(), "c.tar.zst", "host-c", "0190cccc-0000-7000-8000-000000000003", []bundletest.File{
		claudeFile("carol", "cccc1111-0000-4000-8000-000000000001", "2026-05-03", "pwd", "/"),
		claudeFile("carol", "cccc1111-0000-4000-8000-000000000002", "2026-05-04", "id", "uid=1"),
	})
	cb, err := os.ReadFile(cutBundle)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cut.tar.zst", cb[:len(cb)*2/3])
	write("damaged.tar.zst", append([]byte{0}, b[1:]...))
	write("empty.tar.zst", nil)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.tar.zst"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"loop-b.tar.zst", "loop-a.tar.zst"}, {"loop-a.tar.zst", "loop-b.tar.zst"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	inputs := []string{dir, good} // good given twice: a duplicate_input row
	for _, r := range []string{"real-agents", "real-agents-2", "s1ngularity", "rules-backdoor"} {
		inputs = append(inputs, filepath.Join(roots, r))
	}
	var sum *analyze.Summary
	var out string
	within(t, func() { sum, out = run(t, analyze.Options{Inputs: inputs}) })
	rec := runRecord(t, out)
	rows := map[string]int{}
	ps := problems(t, out)
	for _, p := range ps {
		rows[p.Input]++
	}
	if rec.Summary.Problems != len(ps) || sum.Problems != len(ps) {
		t.Fatalf("run.json summary problems %d, summary %d, problems.jsonl %d rows", rec.Summary.Problems, sum.Problems, len(ps))
	}
	var got, want []string
	listed := map[string]bool{}
	for _, s := range rec.Inputs {
		got = append(got, fmt.Sprintf("%s %d", s.Input, s.Problems))
		want = append(want, fmt.Sprintf("%s %d", s.Input, rows[s.Input]))
		listed[s.Input] = true
	}
	sameLines(t, "run.json inputs' problems (got) and problems.jsonl rows per input (want)", got, want)
	inv := inventory(t, out)
	got = got[:0]
	for _, s := range inv.Sources {
		got = append(got, fmt.Sprintf("%s %d", s.Input, s.Problems))
	}
	sameLines(t, "inventory.json sources' problems (got) and problems.jsonl rows per input (want)", got, want)
	// A correlation across files (a record id with two contents, sessions
	// whose states disagree) names the one input its bundle or host came
	// from. A row of an input no source stands for (given twice) names an
	// input run.json lists in inputs_given.
	given := map[string]string{}
	for _, g := range rec.InputsGiven {
		given[g.Input] = g.Status
	}
	var orphans []string
	perInput, correlated := 0, 0
	for _, p := range ps {
		if p.Kind == "duplicate_id" || p.Kind == "state_conflict" {
			correlated++
		}
		switch {
		case listed[p.Input]:
			perInput++
		case p.Input != "" && given[p.Input] == analyze.InputDuplicate && p.Kind == "duplicate_input":
		default:
			orphans = append(orphans, p.Input+" "+p.Kind)
		}
	}
	sort.Strings(orphans)
	sameLines(t, "problems.jsonl rows of an input run.json does not list", orphans, nil)
	if perInput != len(ps) || correlated == 0 {
		t.Fatalf("%d of %d rows belong to a source, %d of them the correlate stage's: want all, and some", perInput, len(ps), correlated)
	}
	// The hostile folder: each entry is accounted for, the cut bundle is
	// read in part and counted.
	var hostile []string
	for _, s := range rec.Inputs {
		if rel, ok := strings.CutPrefix(s.Input, dir+"/"); ok {
			hostile = append(hostile, fmt.Sprintf("%s %s unusable=%v", rel, s.Verified, s.Unusable != ""))
		}
	}
	sameLines(t, "hostile folder's inputs", hostile, []string{
		"cut.tar.zst none unusable=false",
		"damaged.tar.zst none unusable=true",
		"empty.tar.zst none unusable=true",
		"good.tar.zst all unusable=false",
		"loop-a.tar.zst none unusable=true",
		"loop-b.tar.zst none unusable=true",
		"pipe.tar.zst none unusable=true",
	})
	if rec.Summary.CutShort != 1 || len(sum.CutShort) != 1 || sum.CutShort[0] != filepath.Join(dir, "cut.tar.zst") {
		t.Fatalf("cut_short_inputs %d, summary %q", rec.Summary.CutShort, sum.CutShort)
	}
	var counts []string
	for _, n := range []string{"cut", "damaged", "empty", "good", "loop-a", "loop-b", "pipe"} {
		counts = append(counts, fmt.Sprintf("%s %d", n, rows[filepath.Join(dir, n+".tar.zst")]))
	}
	counts = append(counts, fmt.Sprintf("no input %d", rows[""]))
	sameLines(t, "rows per hostile input", counts, []string{"cut 2", "damaged 1", "empty 1", "good 5", "loop-a 1", "loop-b 1", "pipe 1", "no input 0"}) // good's 4 duplicate_id rows are its own
	var cut []string
	for _, p := range ps {
		if p.Input == filepath.Join(dir, "cut.tar.zst") {
			cut = append(cut, p.Kind+" "+p.SourceFile+": "+p.Message)
		}
	}
	sameLines(t, "the cut bundle's rows", cut, []string{
		"no_manifest : no_manifest manifest.jsonl: the bundle was cut short before its manifest: 1 artifacts read cannot be verified",
		"truncated /home/carol/.claude/projects/-home-carol-proj/cccc1111-0000-4000-8000-000000000002.jsonl: truncated /home/carol/.claude/projects/-home-carol-proj/cccc1111-0000-4000-8000-000000000002.jsonl: bundle cut short or corrupt inside this member after 0 of its 1574 bytes (and 1 whole artifacts): its content is incomplete, never verified: unexpected EOF",
	})
}

// inventory reads inventory.json.
func inventory(t *testing.T, out string) analyze.Inventory {
	return readJSON[analyze.Inventory](t, filepath.Join(out, analyze.InventoryJSON))
}

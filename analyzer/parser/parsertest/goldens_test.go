package parsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenDir makes a package-like folder with testdata goldens and moves
// into it.
func goldenDir(t *testing.T, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}

func write(t *testing.T, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.FromSlash(name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run is one test binary's run: the goldens read by parser a/x at version.
func checkRun(version int, update, complete bool, read ...string) error {
	l := newGoldenLog()
	for _, g := range read {
		l.record("a/x", version, g)
	}
	return l.check(update, complete)
}

func wantErr(t *testing.T, err error, sub string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), sub) {
		t.Fatalf("want an error containing %q, got %v", sub, err)
	}
}

func TestGoldenVersions(t *testing.T) {
	goldenDir(t, map[string]string{"testdata/one.golden.jsonl": "{}\n", "testdata/two.golden.jsonl": "[]\n"})
	g1, g2 := "testdata/one.golden.jsonl", "testdata/two.golden.jsonl"

	// Not recorded yet: fails; -update records.
	wantErr(t, checkRun(1, false, true, g1, g2), "a/x (version 1) is not recorded")
	if err := checkRun(1, true, true, g1, g2); err != nil {
		t.Fatal(err)
	}
	if err := checkRun(1, false, true, g1, g2); err != nil {
		t.Fatalf("recorded state: %v", err)
	}
	rec, err := ReadVersions(VersionsFile)
	if err != nil || rec["a/x"].Version != 1 || len(rec["a/x"].Goldens) != 2 {
		t.Fatalf("record %+v %v", rec, err)
	}

	// A golden rewritten (as -update does) without a version bump fails,
	// with and without -update, and leaves the record alone.
	write(t, g1, "{\"changed\":true}\n")
	wantErr(t, checkRun(1, false, true, g1, g2), "golden output changed (testdata/one.golden.jsonl) but Spec.Version is still 1")
	wantErr(t, checkRun(1, true, true, g1, g2), "Spec.Version is still 1")
	// A partial run (-run) checks what it read too.
	wantErr(t, checkRun(1, false, false, g1), "Spec.Version is still 1")

	// Bumped: the record is out of date until -update writes it.
	wantErr(t, checkRun(2, false, true, g1, g2), "out of date")
	if err := checkRun(2, true, true, g1, g2); err != nil {
		t.Fatal(err)
	}
	if err := checkRun(2, false, true, g1, g2); err != nil {
		t.Fatal(err)
	}
	// Versions only go up.
	wantErr(t, checkRun(1, false, true, g1, g2), "below the recorded 2")

	// A golden file no test reads is an orphan, after a complete run only.
	write(t, "testdata/three.golden.jsonl", "")
	wantErr(t, checkRun(2, false, true, g1, g2), "testdata/three.golden.jsonl: golden file no test reads (orphaned)")
	wantErr(t, checkRun(2, true, true, g1, g2), "orphaned")
	if err := checkRun(2, false, false, g1); err != nil {
		t.Fatalf("partial run: %v", err)
	}
	if err := os.Remove("testdata/three.golden.jsonl"); err != nil {
		t.Fatal(err)
	}

	// A recorded golden that the tests stopped reading is stale.
	wantErr(t, checkRun(2, false, true, g1), "out of date")
	if err := checkRun(2, true, true, g1); err == nil {
		t.Fatal("two.golden.jsonl is still on disk and read by nothing: orphan")
	}
	if err := os.Remove(g2); err != nil {
		t.Fatal(err)
	}
	if err := checkRun(2, true, true, g1); err != nil {
		t.Fatal(err)
	}
	if rec, _ := ReadVersions(VersionsFile); len(rec["a/x"].Goldens) != 1 {
		t.Fatalf("record %+v", rec)
	}

	// A recorded parser whose goldens no test read any more.
	l := newGoldenLog()
	wantErr(t, l.check(false, true), "a/x: recorded in testdata/versions.json, but no test compared")
}

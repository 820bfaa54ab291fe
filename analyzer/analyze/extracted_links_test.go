package analyze_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
)

// TestExtractedLinks: an extracted collection whose files/ holds links
// (an examiner's copy that moved ~/.claude to a data folder, a history
// file linked by an absolute target) follows them by the link policy
// relative to files/: verify hashes each file at its real path against
// the row of the path the agent used and names that real path, the
// timeline reads the same files; a link climbing out of files/ and one
// into files/proc are each one problem naming link and target, in verify
// and in the timeline alike, and nothing outside files/ is read.
func TestExtractedLinks(t *testing.T) {
	b := filepath.Join("..", "..", "bundle", "testdata", "v2", "fake-home.tar.zst")
	ext := filepath.Join(t.TempDir(), "x")
	extract(t, b, ext)
	files := filepath.Join(ext, "files")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(files, "data"), 0o755))
	must(os.Rename(filepath.Join(files, "home/alice/.claude"), filepath.Join(files, "data/claude")))
	must(os.Symlink("../../data/claude", filepath.Join(files, "home/alice/.claude")))
	must(os.Rename(filepath.Join(files, "home/alice/.codex/history.jsonl"), filepath.Join(files, "home/alice/.codex/hist-real")))
	must(os.Symlink("/home/alice/.codex/hist-real", filepath.Join(files, "home/alice/.codex/history.jsonl")))
	must(os.Remove(filepath.Join(files, "home/alice/.codex/state_5.sqlite-shm")))
	must(os.Symlink("../../../../manifest.jsonl", filepath.Join(files, "home/alice/.codex/state_5.sqlite-shm")))
	must(os.MkdirAll(filepath.Join(files, "proc/1"), 0o755))
	must(os.Rename(filepath.Join(files, "home/alice/.codex/state_5.sqlite-wal"), filepath.Join(files, "proc/1/wal")))
	must(os.Symlink("/proc/1/wal", filepath.Join(files, "home/alice/.codex/state_5.sqlite-wal")))

	_, res, err := analyze.VerifyExtracted(context.Background(), ext)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Problems {
		got = append(got, p.String())
	}
	want := []string{
		`unsafe_path /home/alice/.codex/state_5.sqlite-wal: files/home/alice/.codex/state_5.sqlite-wal is a link (to "/proc/1/wal"): not followed: its target is under /proc`,
		`unsafe_path /home/alice/.codex/state_5.sqlite-shm: files/home/alice/.codex/state_5.sqlite-shm is a link (to "../../../../manifest.jsonl"): not followed: its target climbs out of the collection's files/`,
		`unlisted_member files/proc/1/wal: file not in the manifest`,
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("verify problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Verified) != 7 || res.Members != 8 {
		t.Errorf("verified %d members %d, want 7 and 8", len(res.Verified), res.Members)
	}
	var fol []string
	for m, r := range res.Followed {
		fol = append(fol, m+" -> "+r)
	}
	sort.Strings(fol)
	wantFol := []string{
		"files/home/alice/.claude/.credentials.json -> files/data/claude/.credentials.json",
		"files/home/alice/.claude/history.jsonl -> files/data/claude/history.jsonl",
		"files/home/alice/.claude/projects/-home-alice-demo/0b1c2d3e-0000-4000-8000-000000000001.jsonl -> files/data/claude/projects/-home-alice-demo/0b1c2d3e-0000-4000-8000-000000000001.jsonl",
		"files/home/alice/.claude/projects/-home-alice-demo/odd%25name-%FF.jsonl -> files/data/claude/projects/-home-alice-demo/odd%25name-%FF.jsonl",
		"files/home/alice/.claude/settings.json -> files/data/claude/settings.json",
		"files/home/alice/.codex/history.jsonl -> files/home/alice/.codex/hist-real",
	}
	if strings.Join(fol, "\n") != strings.Join(wantFol, "\n") {
		t.Errorf("followed:\n%s\nwant\n%s", strings.Join(fol, "\n"), strings.Join(wantFol, "\n"))
	}

	// The timeline reads what verify followed and refuses what it refused.
	_, out, err := timelineErr(t, analyze.Options{Inputs: []string{ext}})
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string]bool{}
	for _, r := range rows(t, out) {
		srcs[r.SourceFile] = true
	}
	for _, f := range []string{"/home/alice/.claude/history.jsonl", "/home/alice/.codex/history.jsonl"} {
		if !srcs[f] {
			t.Errorf("no rows from %s: %v", f, srcs)
		}
	}
	var tl []string
	for _, p := range problemSet(problems(t, out)) {
		if strings.Contains(p, "not followed") {
			tl = append(tl, p)
		}
	}
	sort.Strings(tl)
	wantTL := []string{
		// the frozen bundle's link its collector did not follow (no
		// reason recorded): named, as every path seen but not collected
		`unsafe_path /home/alice/.claude/projects/-home-alice-demo/link.jsonl: a link to "../../settings.json" not followed: not collected, not read`,
		`unsafe_path /home/alice/.codex/state_5.sqlite-shm: files/home/alice/.codex/state_5.sqlite-shm is a link (to "../../../../manifest.jsonl"): not followed: its target climbs out of the collection's files/`,
		`unsafe_path /home/alice/.codex/state_5.sqlite-wal: files/home/alice/.codex/state_5.sqlite-wal is a link (to "/proc/1/wal"): not followed: its target is under /proc`,
	}
	if strings.Join(tl, "\n") != strings.Join(wantTL, "\n") {
		t.Errorf("timeline link problems:\n%s\nwant\n%s", strings.Join(tl, "\n"), strings.Join(wantTL, "\n"))
	}
}

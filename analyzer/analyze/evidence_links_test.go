package analyze_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
)

// TestLooseTreeLinks: a loose image root follows links by the link
// policy relative to its own root: a dotfiles ~/.claude (relative link)
// and a ~/.codex on a data disk (absolute, taken inside the image) are
// read, their rows naming the path through the link; links to /proc, out
// of the tree, round a loop and to a FIFO are each one problem row naming
// link and target, and nothing outside the tree is read.
func TestLooseTreeLinks(t *testing.T) {
	real := func(glob string) string {
		m, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "roots", "real-agents", "home", "examiner", glob))
		if len(m) == 0 {
			t.Fatalf("no fixture file %s", glob)
		}
		return m[0]
	}
	img := t.TempDir()
	outside := t.TempDir()
	put := func(rel, from string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(img, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		p := filepath.Join(img, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(img, "etc"), 0o755)
	os.WriteFile(filepath.Join(img, "etc/hostname"), []byte("looseimg\n"), 0o644)
	cc := real(".claude/projects/-home-examiner-demo/*.jsonl")
	cx := real(".codex/sessions/*/*/*/rollout-*.jsonl")
	put("home/alice/dotfiles/claude/projects/-home-alice-demo/"+filepath.Base(cc), cc)
	link("dotfiles/claude", "home/alice/.claude")
	put("data/codex/sessions/2026/11/30/"+filepath.Base(cx), cx)
	link("/data/codex", "home/alice/.codex")
	os.MkdirAll(filepath.Join(img, "proc/1"), 0o755)
	link("/proc/1", "home/bob/.claude")
	os.WriteFile(filepath.Join(outside, "history.jsonl"), []byte(`{"display":"OUTSIDE"}`+"\n"), 0o644)
	link("../../../../../../../../../.."+filepath.ToSlash(outside), "home/bob/.codex")
	link("..", "home/alice/dotfiles/claude/projects/up")
	sum, out, err := timelineErr(t, analyze.Options{Inputs: []string{img}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Events == 0 {
		t.Fatal("no rows")
	}
	files := map[string]bool{}
	for _, r := range rows(t, out) {
		files[r.User+" "+r.Agent+" "+r.SourceFile] = true
		if strings.Contains(r.Text, "OUTSIDE") {
			t.Errorf("read outside the tree: %+v", r)
		}
	}
	for _, want := range []string{
		"alice claude-code /home/alice/.claude/projects/-home-alice-demo/" + filepath.Base(cc),
		"alice codex-cli /home/alice/.codex/sessions/2026/11/30/" + filepath.Base(cx),
	} {
		if !files[want] {
			t.Errorf("no rows from %s: %v", want, files)
		}
	}
	var got []string
	for _, p := range problemSet(problems(t, out)) {
		if strings.Contains(p, "not followed") {
			got = append(got, p)
		}
	}
	sort.Strings(got)
	want := []string{
		`unsafe_path /home/alice/.claude/projects/up: /home/alice/.claude/projects/up is a link (to ".."): not followed: a loop: its target holds the link itself`,
		`unsafe_path /home/bob/.claude: /home/bob/.claude is a link (to "/proc/1"): not followed: its target is under /proc`,
		`unsafe_path /home/bob/.codex: /home/bob/.codex is a link (to "../../../../../../../../../..` + filepath.ToSlash(outside) + `"): not followed: its target climbs out of the tree`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("link problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

//go:build unix

package inputs

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parsers"
)

// content is a file's content, or the error opening or reading it.
func content(f *os.File, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return "read error: " + err.Error()
	}
	return string(b)
}

// TestDirCache: a folder cache opens each folder once and gives every file
// and every refusal exactly as a walk from the root (OpenIn) does; a
// folder it holds and that is then swapped for a link is never followed;
// past maxCachedDirs folders files still open (the extra folders are
// closed again).
func TestDirCache(t *testing.T) {
	root := t.TempDir()
	out := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	for i := 0; i < 10; i++ {
		must(os.WriteFile(filepath.Join(root, "a", "b", fmt.Sprintf("f%d", i)), []byte(fmt.Sprint("file ", i)), 0o644))
	}
	must(os.WriteFile(filepath.Join(out, "secret"), []byte("outside"), 0o644))
	must(os.Symlink(out, filepath.Join(root, "a", "link")))
	must(os.Symlink(filepath.Join(out, "secret"), filepath.Join(root, "a", "b", "tolink")))
	must(syscall.Mkfifo(filepath.Join(root, "a", "b", "fifo"), 0o644))
	var d DirCache
	defer d.Close()
	for _, rel := range []string{"a/b/f0", "a/b/f9", "a/link/secret", "a/b/tolink", "a/b/fifo", "a/b/none", "a/b/f1/x", "../a/b/f0", "a/../a/b/f0", ""} {
		want := content(OpenIn(root, rel))
		if got := content(d.OpenIn(root, rel)); got != want {
			t.Errorf("%q: cache gives %q, a walk from the root %q", rel, got, want)
		}
	}
	if got := content(d.OpenIn(root, "a/b/f9")); got != "file 9" {
		t.Errorf("a/b/f9 = %q", got)
	}
	if len(d.fds) != 3 {
		t.Errorf("folders held: %d (%v), want 3 (the root, a, a/b)", len(d.fds), d.fds)
	}
	// a/b held, then swapped for a link to outside: the file is read from
	// the folder that was checked, never through the link.
	must(os.Rename(filepath.Join(root, "a", "b"), filepath.Join(root, "a", "old")))
	must(os.WriteFile(filepath.Join(out, "f0"), []byte("outside"), 0o644))
	must(os.Symlink(out, filepath.Join(root, "a", "b")))
	if got := content(d.OpenIn(root, "a/b/f0")); got != "file 0" {
		t.Errorf("after the swap, a/b/f0 through the cache = %q, want the checked folder's %q", got, "file 0")
	}
	if got, want := content(OpenIn(root, "a/b/f0")), "error: a/b/f0: a/b on the way is a link, not a folder: not read"; got != want {
		t.Errorf("a walk from the root after the swap: %q, want %q", got, want)
	}
	// A fresh cache refuses it as the walk does.
	var fresh DirCache
	defer fresh.Close()
	if got, want := content(fresh.OpenIn(root, "a/b/f0")), "error: a/b/f0: a/b on the way is a link, not a folder: not read"; got != want {
		t.Errorf("a fresh cache after the swap: %q, want %q", got, want)
	}
	// Past the bound.
	many := t.TempDir()
	for i := 0; i < maxCachedDirs+5; i++ {
		must(os.Mkdir(filepath.Join(many, fmt.Sprint(i)), 0o755))
		must(os.WriteFile(filepath.Join(many, fmt.Sprint(i), "x"), []byte(fmt.Sprint(i)), 0o644))
	}
	var m DirCache
	defer m.Close()
	for i := 0; i < maxCachedDirs+5; i++ {
		if got := content(m.OpenIn(many, fmt.Sprint(i, "/x"))); got != fmt.Sprint(i) {
			t.Fatalf("%d/x = %q", i, got)
		}
	}
	if len(m.fds) != maxCachedDirs {
		t.Errorf("folders held: %d, want %d", len(m.fds), maxCachedDirs)
	}
}

// TestLooseWalkUsesFolderCache: the loose walk checks each file it finds
// can be opened through the source's folder cache of the tree, so the
// transcripts' folder is opened once for all of them (not a walk from the
// root per file, then another when the file is parsed).
func TestLooseWalkUsesFolderCache(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "home", "alice", ".claude", "projects", "-home-alice-demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		name := fmt.Sprintf("0b9c6a52-5a48-4a4c-8f3c-1a2b3c4d5e6%d.jsonl", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"type":"user"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := openLoose(context.Background(), root, NewRouter(parsers.All()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.files) != 5 {
		t.Fatalf("%d files found, want 5", len(s.files))
	}
	tree := s.files[0].tree
	d := s.dirs[tree]
	if d == nil {
		t.Fatalf("no folder cache for tree %s after the walk (have %v)", tree, s.dirs)
	}
	var held []string
	for k := range d.fds {
		held = append(held, k)
	}
	slices.Sort(held)
	want := []string{"", "home", "home/alice", "home/alice/.claude", "home/alice/.claude/projects", "home/alice/.claude/projects/-home-alice-demo"}
	if !slices.Equal(held, want) {
		t.Errorf("folders held after the walk: %q, want %q", held, want)
	}
	for _, r := range s.files {
		rc, err := s.open(r)
		if err != nil {
			t.Fatalf("%s: %v", r.local, err)
		}
		rc.Close()
	}
	if len(d.fds) != len(want) {
		t.Errorf("folders held after the parse opens: %d, want %d", len(d.fds), len(want))
	}
}

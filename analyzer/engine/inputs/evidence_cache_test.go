//go:build unix

package inputs

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
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

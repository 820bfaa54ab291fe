//go:build unix

package inputs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFolderEntryNotRegularWording: a FIFO named like a bundle in a folder
// of evidence is said never opened, not given a target to follow (T14: it
// was "give its target itself"); a link keeps that advice.
func TestFolderEntryNotRegularWording(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "f.tar.zst"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	os.Symlink("/elsewhere/b.tar.zst", filepath.Join(dir, "l.tar.zst"))
	x := Expand([]string{dir})
	got := map[string]string{}
	for _, st := range x.Statuses {
		got[filepath.Base(st.Input)] = st.Reason
	}
	want := map[string]string{
		"f.tar.zst": "is a FIFO: an entry of a folder of evidence is read only as a regular file: never opened (copy the bundle into a regular file and give that)",
		"l.tar.zst": `is a link (to "/elsewhere/b.tar.zst"): an entry of a folder of evidence is read only as a regular file: a link is not followed (give its target itself)`,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: reason %q, want %q", k, got[k], w)
		}
	}
}

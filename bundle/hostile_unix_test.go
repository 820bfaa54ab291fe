//go:build unix

package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestSidecarNeverThroughALink: WriteSidecar refuses a link or a file in
// the way (the victim is unchanged); CheckSidecar never opens a FIFO or
// follows a link planted as FILE.sha256.
func TestSidecarNeverThroughALink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	out := filepath.Join(dir, "b.tar.zst")
	os.WriteFile(out, goodBundle(t), 0o644)
	if err := os.Symlink(victim, out+".sha256"); err != nil {
		t.Fatal(err)
	}
	err := bundle.WriteSidecar(out, strings.Repeat("0", 64), "b.tar.zst")
	if !errors.Is(err, bundle.ErrOutputExists) {
		t.Fatalf("WriteSidecar through a link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Fatalf("victim changed: %q", b)
	}
	sc, err := bundle.CheckSidecar(out)
	if err != nil || !sc.Present || sc.OK || sc.Msg != "sidecar "+out+".sha256 is not a regular file (a link, FIFO, socket, device or folder): not opened" {
		t.Fatalf("link sidecar: %+v %v", sc, err)
	}
	os.Remove(out + ".sha256")
	if err := syscall.Mkfifo(out+".sha256", 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	sc, err = bundle.CheckSidecar(out) // would block forever if opened
	if err != nil || !sc.Present || sc.OK {
		t.Fatalf("FIFO sidecar: %+v %v", sc, err)
	}
	if err := bundle.WriteSidecar(out, strings.Repeat("0", 64), "b.tar.zst"); !errors.Is(err, bundle.ErrOutputExists) {
		t.Fatalf("WriteSidecar over a FIFO: %v", err)
	}
}

//go:build unix

package collect

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestFIFOStoreSidecars: a SQLite store that is a FIFO keeps its
// skipped_special row, and its side files are recorded beside it (a FIFO
// -wal skipped_special, a regular -shm not copied, saying why), never
// opened; before, the side files of a store that is not a regular file
// were not in the manifest at all.
func TestFIFOStoreSidecars(t *testing.T) {
	root, _ := fakeRoot(t)
	dir := filepath.Join(root, "home/bob/.n8n")
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(filepath.Join(dir, "database.sqlite"+s))
	}
	for _, s := range []string{"", "-wal"} {
		if err := syscall.Mkfifo(filepath.Join(dir, "database.sqlite"+s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "database.sqlite-shm"), []byte("shm"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _, err := run(t, context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	m := byPath(vr.Manifest)
	store := "/home/bob/.n8n/database.sqlite"
	if e := rowOf(t, m, store); e.Status != bundle.StatusSkippedSpecial || e.Type != "fifo" {
		t.Errorf("FIFO store: %+v", e)
	}
	if e := rowOf(t, m, store+"-wal"); e.Status != bundle.StatusSkippedSpecial || e.Type != "fifo" || e.SidecarOf != store {
		t.Errorf("FIFO WAL: %+v", e)
	}
	if e := rowOf(t, m, store+"-shm"); e.Status != bundle.StatusSkippedSpecial || e.Type != "file" || e.SidecarOf != store ||
		e.Error != "side file of "+store+", which is a FIFO: not collected" || e.SHA256 != "" {
		t.Errorf("regular -shm beside a FIFO store: %+v", e)
	}
}

//go:build unix

package collect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestFIFOAtEtcFilesDoesNotHang: an image whose /etc/hostname and
// /etc/passwd are FIFOs is still collected (found by the fresh-user trial:
// the collector blocked forever in open(2)).
func TestFIFOAtEtcFilesDoesNotHang(t *testing.T) {
	root := t.TempDir()
	put(t, root, "home/alice/.claude/history.jsonl", "{}\n")
	os.MkdirAll(filepath.Join(root, "etc"), 0o755)
	for _, n := range []string{"hostname", "passwd", "os-release", "timezone"} {
		if err := syscall.Mkfifo(filepath.Join(root, "etc", n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, res, err := run(t, context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if res.Header.Host.Hostname != "unknown-host" || res.Summary.Counts["collected"] != 1 {
		t.Fatalf("hostname %q counts %v", res.Header.Host.Hostname, res.Summary.Counts)
	}
	if _, err := readSmall(root, "/etc/hostname", 10); !errors.Is(err, errNotRegular) {
		t.Fatalf("readSmall on a FIFO: %v", err)
	}
	if err := Inventory(discard{}, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestSymlinkedHomeIsRecorded: a home that is a link resolving nowhere in
// the image gets a manifest row with its target (found by the fresh-user
// trial: it vanished without a trace).
func TestSymlinkedHomeIsRecorded(t *testing.T) {
	root := t.TempDir()
	put(t, root, "home/alice/.claude/history.jsonl", "{}\n")
	symlink(t, "/elsewhere/eve", root, "home/eve")
	b, _, err := run(t, context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, res := verify(t, b, bundle.ProblemRowError)
	e := rowOf(t, byPath(res.Manifest), "/home/eve")
	if e.Status != "symlink" || e.LinkTarget != "/elsewhere/eve" || e.User != "eve" || e.ArchivePath != "" {
		t.Fatalf("row %+v", e)
	}
}

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

// TestKeyFilesByTheEvidenceRule: an identity or recipients file that is a
// link, a FIFO or a folder is refused without being opened (a FIFO would
// block the run), with the reason.
func TestKeyFilesByTheEvidenceRule(t *testing.T) {
	dir := t.TempDir()
	abs, _ := filepath.Abs(testIdentity)
	link := filepath.Join(dir, "link.txt")
	fifo := filepath.Join(dir, "fifo.txt")
	if err := os.Symlink(abs, link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, p := range []string{link, fifo, dir} {
		if _, err := bundle.ReadIdentities([]string{p}); !errors.Is(err, bundle.ErrNotRegular) {
			t.Errorf("identity %s: %v", p, err)
		}
		if _, _, err := bundle.ParseRecipients([]string{p}); !errors.Is(err, bundle.ErrNotRegular) {
			t.Errorf("recipients %s: %v", p, err)
		}
	}
	if _, err := bundle.ReadIdentities([]string{filepath.Join(dir, "none")}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing: %v", err)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("AGE-SECRET-KEY-1SECRETSECRETSECRET\n"), 0o600)
	if _, err := bundle.ReadIdentities([]string{bad}); err == nil || strings.Contains(err.Error(), "SECRETSECRET") {
		t.Errorf("bad key: %v", err)
	}
}

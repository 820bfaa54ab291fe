//go:build unix

package catalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNotAFolderWhereAFolderIsExpected: a FIFO standing at ~/.claude, a
// plain file at ~/.codex and a FIFO at ~/.claude/projects under a real
// ~/.claude are each one hit, attributed to the agent whose folder it
// stands for, with its own mode (the collector records the FIFO as
// skipped_special without opening it). Before, the walk found no folder
// and said nothing: the agent's folder was silently absent from the
// manifest and from --inventory.
func TestNotAFolderWhereAFolderIsExpected(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, ".claude"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	home2 := t.TempDir()
	if err := os.Mkdir(filepath.Join(home2, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(home2, ".claude", "projects"), 0o644); err != nil {
		t.Fatal(err)
	}
	walk := func(home string) string {
		var got []string
		if err := WalkHome(home, All(), func(h Hit) error {
			kind := "file"
			if h.Info == nil {
				kind = "no info"
			} else if h.Info.Mode()&fs.ModeNamedPipe != 0 {
				kind = "fifo"
			} else if h.Info.IsDir() {
				kind = "folder"
			}
			got = append(got, h.Rel+" "+h.Agent+" "+kind)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return strings.Join(got, "\n")
	}
	if got, want := walk(home), ".claude claude-code fifo\n.codex codex-cli file"; got != want {
		t.Errorf("hits:\n%s\nwant\n%s", got, want)
	}
	if got := walk(home2); !strings.Contains(got, ".claude/projects claude-code fifo") || strings.Count(got, ".claude/projects ") != 1 {
		t.Errorf("hits:\n%s\nwant one .claude/projects claude-code fifo", got)
	}
}

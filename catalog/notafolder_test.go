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

// TestFolderWhereAFileIsExpected: a folder standing where a target names a
// file (~/.local/share/opencode/opencode.db, ~/.claude/settings.json) is
// one hit with its folder mode, so the collector
// records it (skipped_special, "a directory where a file was expected")
// and a loose read names it; before, the walk skipped it in silence.
func TestFolderWhereAFileIsExpected(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".local/share/opencode/opencode.db", ".claude/settings.json"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := WalkHome(home, All(), func(h Hit) error {
		if h.Info != nil && h.Info.IsDir() && (strings.HasSuffix(h.Rel, ".db") || strings.HasSuffix(h.Rel, ".json")) {
			got = append(got, h.Rel+" "+h.Agent+" "+h.Target.ID)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := ".claude/settings.json claude-code settings\n.local/share/opencode/opencode.db opencode db"; strings.Join(got, "\n") != want {
		t.Errorf("hits:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

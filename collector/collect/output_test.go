//go:build unix

package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOutputInsideEvidenceRootMode(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "image")
	put(t, root, "home/alice/.claude/history.jsonl", "{}")
	if err := os.MkdirAll(filepath.Join(base, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(root, "home"), base, "sneaky")
	for out, refused := range map[string]bool{
		filepath.Join(root, "out.tar.zst"):                    true,
		filepath.Join(root, "home/alice/.claude/b.tar.zst"):   true,
		filepath.Join(base, "sneaky/b.tar.zst"):               true, // a link into the image
		filepath.Join(base, "cases/b.tar.zst"):                false,
		filepath.Join(base, "image-other/b.tar.zst"):          false, // a sibling sharing the prefix
		filepath.Join(base, "cases/not-yet/deeper/b.tar.zst"): false,
	} {
		why := OutputInsideEvidence(out, root)
		if (why != "") != refused {
			t.Errorf("OutputInsideEvidence(%s) = %q, want refused=%v", out, why, refused)
		}
	}
}

func TestWalksDir(t *testing.T) {
	for _, c := range []struct {
		pat, dir string
		want     bool
	}{
		{".claude/projects/**/*.jsonl", ".claude", true},
		{".claude/projects/**/*.jsonl", ".claude/projects/x/y", true},
		{".claude/history.jsonl", ".claude", true},
		{".claude/history.jsonl", ".claude/sub", false},
		{".claude-*/projects/**/*.jsonl", ".claude-work/projects", true},
		{".claude-*/projects/**/*.jsonl", "Downloads", false},
		{".claude.json", "Downloads", false},
		{"AppData/Roaming/Code/User/**", "AppData/Roaming/Code/User/x", true},
		{"AppData/Roaming/Code/User/**", "AppData/Roaming", true},
		{"AppData/Roaming/Code/User/**", "AppData/Local", false},
	} {
		if got := walksDir(strings.Split(c.pat, "/"), strings.Split(c.dir, "/")); got != c.want {
			t.Errorf("walksDir(%s, %s) = %v", c.pat, c.dir, got)
		}
	}
}

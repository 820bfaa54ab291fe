//go:build unix

package collect

import (
	"testing"
)

// TestNothingUnseenDanglingGeminiLink: a dangling ~/.gemini is Gemini
// CLI's folder, not Antigravity's (whose patterns meet it first): its
// symlink row, and --inventory's line, say gemini-cli.
func TestNothingUnseenDanglingGeminiLink(t *testing.T) {
	root := t.TempDir()
	put(t, root, "etc/passwd", "alice:x:1000:1000::/home/alice:/bin/bash\n")
	symlink(t, "/gone/gemini", root, "home/alice/.gemini")
	man := agreeRows(t, Options{Root: root})
	var got []string
	for _, e := range man {
		got = append(got, e.Path+" "+e.Agent+" "+e.Target+" "+e.Status+" "+e.LinkTarget+" "+e.Error)
	}
	want := `/home/alice/.gemini gemini-cli projects symlink /gone/gemini link to "/gone/gemini" not followed: its target does not exist inside --root (an absolute target is taken relative to the root)`
	if len(got) != 1 || got[0] != want {
		t.Errorf("rows:\n%q\nwant\n%q", got, want)
	}
}

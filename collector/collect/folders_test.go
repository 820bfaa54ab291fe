//go:build unix

package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestPresentAndEmpty: every catalog folder that exists gets a row (status
// folder, type dir, its MACB times, nothing copied) even when it holds
// nothing, so "installed, nothing kept" is told from "never there"; a
// root folder (.config) and a folder no target names get none; a catalog
// folder below a followed link gets its row at its path through the link.
func TestPresentAndEmpty(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"home/alice/.claude/projects", "home/alice/.codex", "home/alice/.config", "home/alice/.claude/unknown", "data/cx/sessions"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, "/data/cx", root, "home/bob/.codex")
	mt := time.Date(2026, 11, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "home/alice/.claude/projects"), mt, mt); err != nil {
		t.Fatal(err)
	}
	b, _, err := run(t, t.Context(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	// bob's ~/.codex -> /data/cx is followed, outside every home: a
	// warning, never silent.
	_, vr := verify(t, b, bundle.ProblemLinkOutsideHomes)
	if len(vr.Problems) != 1 || vr.Problems[0].Path != "/home/bob/.codex" {
		t.Errorf("problems %v, want one link_outside_homes for /home/bob/.codex", vr.Problems)
	}
	checkRows(t, root, vr.Manifest)
	var got []string
	for _, e := range vr.Manifest {
		if e.Status == bundle.StatusFolder {
			if e.Type != "dir" || e.ArchivePath != "" || e.SHA256 != "" || e.MTime == "" || e.CTime == "" {
				t.Errorf("folder row %+v", e)
			}
			got = append(got, e.User+" "+e.Agent+" "+e.Path+" "+e.RealPath+" "+e.ViaLink)
		}
	}
	want := []string{
		"alice claude-code /home/alice/.claude  ",
		"alice claude-code /home/alice/.claude/projects  ",
		"alice codex-cli /home/alice/.codex  ",
		"bob codex-cli /data/cx  /home/bob/.codex",
		"bob codex-cli /home/bob/.codex/sessions /data/cx/sessions /home/bob/.codex",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("folder rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := rowOf(t, byPath(vr.Manifest), "/home/alice/.claude/projects"); e.MTime != "2026-11-02T03:04:05Z" && e.MTime != "2026-11-02T03:04:05.000000000Z" {
		t.Errorf("projects folder mtime %q", e.MTime)
	}
}

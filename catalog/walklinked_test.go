package catalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestWalkLinked: a folder walked as if it stood at .claude gives the
// hits a home's .claude would, with Rel through the link and Path in the
// folder; a link below it is reported, never followed; a pattern that
// cannot lie below .claude is not walked.
func TestWalkLinked(t *testing.T) {
	dir := t.TempDir()
	for _, rel := range []string{"projects/-p/s.jsonl", "settings.json", "history.jsonl", "unrelated/x.json"} {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{}"), 0o644)
	}
	os.Symlink("/elsewhere", filepath.Join(dir, "todos"))
	cc, _ := Lookup("claude-code")
	codex, _ := Lookup("codex-cli")
	var got []string
	err := WalkLinked(dir, ".claude", []Agent{cc, codex}, func(h Hit) error {
		kind := "file"
		if h.Info != nil && h.Info.Mode()&os.ModeSymlink != 0 {
			kind = "link"
		}
		rel, _ := filepath.Rel(dir, h.Path)
		got = append(got, h.Agent+"/"+h.Target.ID+" "+h.Rel+" "+filepath.ToSlash(rel)+" "+kind)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := []string{
		"claude-code/history .claude/history.jsonl history.jsonl file",
		"claude-code/projects .claude/projects/-p/s.jsonl projects/-p/s.jsonl file",
		"claude-code/settings .claude/settings.json settings.json file",
		"claude-code/todos .claude/todos todos link",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hits:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDanglingLinkAttributedToItsFolder: a dangling ~/.gemini link is met
// first on the way to Antigravity's ~/.gemini/antigravity*/ patterns, but
// ~/.gemini is Gemini CLI's folder: the link's one hit is Gemini CLI's;
// a dangling ~/.gemini/antigravity is Antigravity's.
func TestDanglingLinkAttributedToItsFolder(t *testing.T) {
	home := t.TempDir()
	if err := os.Symlink("/nowhere/gemini", filepath.Join(home, ".gemini")); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := WalkHome(home, All(), func(h Hit) error {
		got = append(got, h.Rel+" "+h.Agent+" "+h.Target.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := ".gemini gemini-cli " + folderTarget(t, ".gemini"); strings.Join(got, "\n") != want {
		t.Errorf("hits:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	home2 := t.TempDir()
	os.MkdirAll(filepath.Join(home2, ".gemini"), 0o755)
	if err := os.Symlink("/nowhere/ag", filepath.Join(home2, ".gemini", "antigravity")); err != nil {
		t.Fatal(err)
	}
	got = nil
	_ = WalkHome(home2, All(), func(h Hit) error {
		if h.Info != nil && h.Info.Mode()&fs.ModeSymlink != 0 {
			got = append(got, h.Rel+" "+h.Agent)
		}
		return nil
	})
	if want := ".gemini/antigravity antigravity"; strings.Join(got, "\n") != want {
		t.Errorf("hits:\n%s\nwant %s", strings.Join(got, "\n"), want)
	}
}

func folderTarget(t *testing.T, rel string) string {
	t.Helper()
	for _, f := range Folders(All()) {
		if f.Rel == rel {
			if f.Agent != "gemini-cli" {
				t.Errorf("%s is %s's folder", rel, f.Agent)
			}
			return f.Target.ID
		}
	}
	t.Fatalf("no catalog folder %s", rel)
	return ""
}

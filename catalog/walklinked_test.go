package catalog

import (
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

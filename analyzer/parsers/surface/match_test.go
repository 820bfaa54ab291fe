package surface

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// matchRef is match without mayMatch: every entry's glob through the
// matcher.
func matchRef(p *surfaceParser, rel string) (entry, bool) {
	for _, e := range p.s.entries {
		if m, _ := doublestar.Match(e.glob, rel); m {
			return e, true
		}
	}
	for _, e := range p.s.entries {
		if !e.backup {
			continue
		}
		if m, _ := doublestar.Match(e.glob+backupSuffix, rel); m {
			e.backup = true
			e.what = "backup"
			return e, true
		}
	}
	return entry{}, false
}

// TestMayMatchNeverRejectsAMatch: match with its prefilter finds the
// entry the matcher alone finds, for every agent's table, on every path
// under the fixture roots (as home-relative and as every tail a project
// file is tried at) and on paths built from each glob.
func TestMayMatchNeverRejectsAMatch(t *testing.T) {
	var rels []string
	root := filepath.Join("..", "..", "..", "fixtures", "roots")
	if err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		parts := strings.Split(filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator))), "/")
		for i := range parts {
			rels = append(rels, strings.Join(parts[i:], "/"))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(rels) < 1000 {
		t.Fatalf("only %d paths under %s", len(rels), root)
	}
	for _, s := range table() {
		for _, e := range s.entries {
			g := strings.NewReplacer("**", "x/y", "*", "z", "?", "q", "{", "", "}", "", ",", "").Replace(e.glob)
			rels = append(rels, g, g+".bak", g+".backup.1", g+".orig", e.glob, e.glob+".old")
		}
	}
	rels = append(rels, "", ".mcp.json", ".mcp.json.bak", ".env", "CLAUDE.md", "AGENTS.md.orig.2", ".claude/settings.json.backup.1712")
	matched := 0
	for _, s := range table() {
		p := &surfaceParser{s: s}
		for _, rel := range rels {
			got, gok := p.match(rel)
			want, wok := matchRef(p, rel)
			if gok != wok || got.glob != want.glob || got.what != want.what || got.backup != want.backup {
				t.Fatalf("%s: match(%q) = %q %v, the matcher alone %q %v", s.agent, rel, got.glob, gok, want.glob, wok)
			}
			if gok {
				matched++
			}
		}
	}
	if matched < 200 {
		t.Errorf("only %d matches: the paths do not exercise the table", matched)
	}
	t.Logf("%d paths, %d matches", len(rels), matched)
}

func TestMayMatch(t *testing.T) {
	for _, c := range []struct {
		glob, rel string
		whole     bool
		want      bool
	}{
		{".claude/plugins/**/.mcp.json", ".claude/projects/-x/a.jsonl", true, false},
		{".claude/plugins/**/.mcp.json", ".claude/plugins/m/.mcp.json", true, true},
		{".claude/plugins/**/.mcp.json", ".claude/plugins/m/.mcp.jsonl", true, false},
		{".claude/{settings,settings.local}.json", ".claude/settings.json.bak", true, false},
		{".claude/{settings,settings.local}.json", ".claude/settings.json.bak", false, true},
		{".mcp.json", ".mcp.json", true, true},
		{".mcp.json", ".mcp.json.bak", true, false},
		{".mcp.json", ".mcp.json.bak", false, true},
		{".mcp.json", "x/.mcp.json", false, false},
		{`a\*.md`, "a*.md", true, true},
		{"{.claude.json,.claude/.claude.json}", ".claude/.claude.json", true, true},
	} {
		if got := mayMatch(c.glob, c.rel, c.whole); got != c.want {
			t.Errorf("mayMatch(%q, %q, %v) = %v, want %v", c.glob, c.rel, c.whole, got, c.want)
		}
	}
}

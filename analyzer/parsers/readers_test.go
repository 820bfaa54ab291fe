package parsers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
)

// looseHome writes files (home-relative path -> content) into a home and
// runs every parser over it.
func looseHome(t *testing.T, files map[string]string) analyzetest.Out {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home", "examiner")
	for rel, body := range files {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return analyzetest.Run(t, parsers.All(), home)
}

// ~/.claude/settings.json saved by a Windows editor (UTF-8 BOM, CRLF), which
// Claude Code reads (anthropics/claude-code#81355, #9906): the permissions
// in force are rows, and no parser calls the file unreadable.
func TestSettingsBOMCRLF(t *testing.T) {
	o := looseHome(t, map[string]string{".claude/settings.json": "\xef\xbb\xbf{\r\n  \"permissions\": {\r\n    \"allow\": [\"Bash(npm run test:*)\"],\r\n    \"deny\": [\"Read(./.env)\"],\r\n    \"defaultMode\": \"acceptEdits\"\r\n  },\r\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"/opt/guard.sh\"}]}]}\r\n}\r\n"})
	var got []string
	for _, r := range o.Rows {
		got = append(got, r.Parser+" "+r.Text)
	}
	want := []string{
		"claude-code/settings permission setting: allow=Bash(npm run test:*) (from settings.json, file mtime)",
		"claude-code/settings permission setting: deny=Read(./.env) (from settings.json, file mtime)",
		"claude-code/settings permission setting: defaultMode=acceptEdits (from settings.json, file mtime)",
		"claude-code/surface control surface: hook PreToolUse[Bash]: /opt/guard.sh (from .claude/settings.json, file mtime)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(o.Problems) != 0 {
		t.Errorf("problems: %+v", o.Problems)
	}
}

// One file gives one problem, not one per parser that opens it: a
// settings.json no JSON reader can read is one parse problem naming both
// parsers.
func TestUnreadableSettingsOneProblem(t *testing.T) {
	o := looseHome(t, map[string]string{".claude/settings.json": "\xef\xbb\xbf{\r\n  \"permissions\": {\"allow\": [\"Bash(ls:*)\"\r\n"})
	if len(o.Problems) != 1 {
		t.Fatalf("problems: %+v", o.Problems)
	}
	p := o.Problems[0]
	if p.Parser != "claude-code/settings,claude-code/surface" || p.Kind != "parse" || !strings.HasSuffix(p.SourceFile, "/.claude/settings.json") || p.Message != "not valid JSON: unexpected end of JSON input" {
		t.Errorf("problem: %+v", p)
	}
}

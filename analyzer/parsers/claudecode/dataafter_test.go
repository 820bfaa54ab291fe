package claudecode

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestSettingsDataAfter: ~/.claude.json and settings.json with a second
// value after the object (Claude Code's rewrites of .claude.json racing
// each other leave such files) keep their rows and add a problem naming
// the byte where the unread data starts; before, it went unsaid.
func TestSettingsDataAfter(t *testing.T) {
	for _, c := range []struct{ src, orig, rel, target, tail, want string }{
		{"testdata/claude.json", "/home/examiner/.claude.json", ".claude.json", "claude-json", "\n" + `{"projects":{"/x":{"lastSessionId":"s"}}}`,
			"line 0: data after the JSON value (from byte 758) not read: a second value or junk after its end (a rewrite cut or racing another)"},
		{"testdata/settings.json", "/home/examiner/.claude/settings.json", ".claude/settings.json", "settings", " \x00\n",
			""},
		{"testdata/settings.json", "/home/examiner/.claude/settings.json", ".claude/settings.json", "settings", "}",
			"line 0: data after the JSON value (from byte SIZE) not read: a second value or junk after its end (a rewrite cut or racing another)"},
	} {
		b, err := os.ReadFile(c.src)
		if err != nil {
			t.Fatal(err)
		}
		local := filepath.Join(t.TempDir(), filepath.Base(c.src))
		if err := os.WriteFile(local, append(b, c.tail...), 0o600); err != nil {
			t.Fatal(err)
		}
		f := parser.File{Path: c.orig, Rel: c.rel, Agent: Agent, Target: c.target}
		whole := parsertest.Run(t, Settings(), parsertest.Input(t, c.src, f, nil))
		s := parsertest.Run(t, Settings(), parsertest.Input(t, local, f, nil))
		want := strings.ReplaceAll(c.want, "SIZE", strconv.Itoa(len(b)))
		if got := strings.Join(s.Problems, "|"); got != want || len(s.Events) != len(whole.Events) || len(whole.Problems) != 0 {
			t.Errorf("%s+%q: rows %d (whole %d), problems %q, want %q", c.src, c.tail, len(s.Events), len(whole.Events), got, want)
		}
	}
}

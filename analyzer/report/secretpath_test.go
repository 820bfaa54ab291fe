package report_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/analyzer/report"
)

// TestTokenInAPathIsMasked: a credential-shaped name in a folder (a
// project under a folder named for a token, as CLAUDE_CONFIG_DIR=/x/ghp_...
// makes) is printed nowhere in report.md or report.html: not in the
// source-file table, a row's source link or a session's project line; the
// path shows "[redacted]" where the token was.
func TestTokenInAPathIsMasked(t *testing.T) {
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	home := filepath.Join(t.TempDir(), "a")
	dir := filepath.Join(home, ".claude", "projects", "-w-"+token)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","message":{"role":"user","content":"hello"},"uuid":"u1","sessionId":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/w/` + token + `"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{home}, OutDir: out, Parsers: claudecode.Parsers(), Jobs: 1, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files[:2] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(b), `\`, "") // report.md escapes '_' and '-'
		if strings.Contains(s, "ghp_0123") {
			t.Errorf("%s prints the token", filepath.Base(f))
		}
		for _, w := range []string{"-w-[redacted]/s1.jsonl", "project /w/[redacted]"} {
			if !strings.Contains(s, w) {
				t.Errorf("%s lacks %q", filepath.Base(f), w)
			}
		}
	}
}

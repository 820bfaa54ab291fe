package bundle

import "testing"

func TestMaskSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"/nonexist/ghp_ABCDEFGHIJKLMNOPQRSTuvwx/claude": "/nonexist/[redacted]/claude",
		"CLAUDE_CONFIG_DIR=/x/sk-ant-abcdefgh12345":     "CLAUDE_CONFIG_DIR=/x/[redacted]",
		"Authorization: Bearer abcdefgh12345678":        "Authorization: Bearer [redacted]",
		"/home/alice/.claude/projects/p.jsonl":          "/home/alice/.claude/projects/p.jsonl",
	} {
		if got := MaskSecrets(in); got != want {
			t.Errorf("MaskSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}

package parser

import "testing"

func TestIsGitSampleHook(t *testing.T) {
	for p, want := range map[string]bool{
		"/home/u/.claude/plugins/marketplaces/acme/.git/hooks/pre-commit.sample":      true,
		".letta/lc-local-backend/memfs/a/memory/.git/hooks/fsmonitor-watchman.sample": true,
		`C:\Users\u\.codex\hooks\pre-push.sample`:                                     true,
		"hooks/update.sample": true,
		"/home/u/.claude/plugins/marketplaces/acme/.git/hooks/pre-commit": false, // a hook git runs
		"/home/u/.claude/hooks/check.sh":                                  false,
		"/home/u/.claude/hooks/.sample":                                   false,
		"/home/u/.claude/hooks/sub/pre-commit.sample":                     false, // git runs only hooks/NAME
		"/home/u/project/config.sample":                                   false,
		"/home/u/project/webhooks/x.sample":                               false,
	} {
		if got := IsGitSampleHook(p); got != want {
			t.Errorf("IsGitSampleHook(%q) = %v, want %v", p, got, want)
		}
	}
}

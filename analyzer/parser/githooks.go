package parser

import "strings"

// IsGitSampleHook reports whether p (a path, slash or backslash
// separated) is one of git's sample hooks: a file named *.sample directly
// in a folder named hooks (git init and git clone copy pre-commit.sample,
// pre-push.sample and the rest from git's templates into .git/hooks).
// Git runs a hook only under its exact name, so a sample never runs: it
// is not a hook, wherever an agent's folder holds a clone (a plugin
// marketplace, a memory repository, a project).
func IsGitSampleHook(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	dir, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i], p[i+1:]
	}
	if !strings.HasSuffix(base, ".sample") || len(base) == len(".sample") {
		return false
	}
	return dir == "hooks" || strings.HasSuffix(dir, "/hooks")
}

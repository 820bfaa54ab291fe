package analyze_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
)

// within runs fn and fails the test if it has not returned in a minute: a
// hang guard (a FIFO opened, an endless query), not a speed assertion.
func within(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("did not return within 60s: blocked on a FIFO or an endless query?")
	}
}

// timelineErr runs a timeline that may fail, under the hang guard.
func timelineErr(t *testing.T, opts analyze.Options) (*analyze.Summary, string, error) {
	t.Helper()
	if opts.OutDir == "" {
		opts.OutDir = filepath.Join(t.TempDir(), "out")
	}
	opts.Parsers = parsers.All()
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	var sum *analyze.Summary
	var err error
	within(t, func() { sum, err = analyze.Timeline(context.Background(), opts) })
	return sum, opts.OutDir, err
}

// problemSet renders problems as "kind source_file: message" lines.
func problemSet(ps []analyze.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Kind+" "+p.SourceFile+": "+p.Message)
	}
	return out
}

func hasProblem(t *testing.T, ps []analyze.Problem, want string) {
	t.Helper()
	for _, s := range problemSet(ps) {
		if s == want {
			return
		}
	}
	t.Fatalf("no problem %q in:\n%s", want, strings.Join(problemSet(ps), "\n"))
}

const sidA = "aaaa1111-0000-4000-8000-000000000001"

// sha is the hex SHA-256 of s.
func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

package inputs

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/analyzer/parser"
)

func listSource(paths ...string) *Source {
	s := &Source{}
	for _, p := range paths {
		s.add(&File{File: parser.File{Path: p}})
	}
	return s
}

// bruteList is what List must return: every match, sorted by path.
func bruteList(s *Source, pattern string) []string {
	var out []string
	for _, f := range s.files {
		if ok, _ := doublestar.Match(pattern, f.Path); ok {
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	return out
}

func TestSourceListSearchesTheWholeSourceByPrefix(t *testing.T) {
	s := listSource(
		"/home/a/.pi/agent/sessions/--x--/s1.jsonl",
		"/home/a/.pi/agent/sessions/--x--/s2.jsonl",
		"/home/a/.pi/agent/sessions/--y--/s1.jsonl",
		"/home/b/.pi/agent/sessions/--x--/s1.jsonl",
		"/home/ab/.claude/projects/p/c1.jsonl",
		"/home/a[1]/tasks/t*/ui_messages.json",
		"/home/a[1]/tasks/t2/ui_messages.json",
		"C:/Users/carol/.claude/projects/p/c1.jsonl",
		"/root/.claude/projects/q/c1.jsonl",
	)
	cases := map[string][]string{
		"/home/a/.pi/agent/sessions/*/s1.jsonl": {"/home/a/.pi/agent/sessions/--x--/s1.jsonl", "/home/a/.pi/agent/sessions/--y--/s1.jsonl"},
		"/home/a/**":                            {"/home/a/.pi/agent/sessions/--x--/s1.jsonl", "/home/a/.pi/agent/sessions/--x--/s2.jsonl", "/home/a/.pi/agent/sessions/--y--/s1.jsonl"},
		"/home/a*/**/*.jsonl":                   {"/home/a/.pi/agent/sessions/--x--/s1.jsonl", "/home/a/.pi/agent/sessions/--x--/s2.jsonl", "/home/a/.pi/agent/sessions/--y--/s1.jsonl", "/home/ab/.claude/projects/p/c1.jsonl"},
		// Every home: a pattern that starts with a wildcard.
		"**/.claude/projects/*/c1.jsonl": {"/home/ab/.claude/projects/p/c1.jsonl", "/root/.claude/projects/q/c1.jsonl", "C:/Users/carol/.claude/projects/p/c1.jsonl"},
		// An escaped literal directory (parser.GlobEscape).
		parser.GlobEscape("/home/a[1]/tasks/t*") + "/*":                {"/home/a[1]/tasks/t*/ui_messages.json"},
		parser.GlobEscape("/home/b/.pi/agent/sessions/--x--/s1.jsonl"): {"/home/b/.pi/agent/sessions/--x--/s1.jsonl"},
		"/home/c/**":            nil,
		"C:/Users/*/.claude/**": {"C:/Users/carol/.claude/projects/p/c1.jsonl"},
	}
	for pattern, want := range cases {
		var got []string
		for _, f := range s.list(pattern) {
			got = append(got, f.Path)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("list(%q)\n got %q\nwant %q", pattern, got, want)
		}
		if b := bruteList(s, pattern); strings.Join(b, "|") != strings.Join(want, "|") {
			t.Errorf("brute force disagrees on %q: %q", pattern, b)
		}
	}
}

// BenchmarkSourceList is a parser's List per file over a large source
// (5,000 homes of 4 files): with the index a call costs the files under
// the pattern's prefix, not the whole source.
func BenchmarkSourceList(b *testing.B) {
	var paths []string
	for h := 0; h < 5000; h++ {
		for f := 0; f < 4; f++ {
			paths = append(paths, fmt.Sprintf("/home/u%04d/.pi/agent/sessions/--p--/s%d.jsonl", h, f))
		}
	}
	s := listSource(paths...)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := s.list(fmt.Sprintf("/home/u%04d/.pi/agent/sessions/*/s1.jsonl", i%5000)); len(got) != 1 {
			b.Fatalf("%d matches", len(got))
		}
	}
}

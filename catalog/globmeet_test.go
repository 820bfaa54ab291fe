package catalog

// Test-only: whether two globs can match one path (TestSharedPaths).

import "strings"

// globsMeet reports whether some '/'-separated path matches both
// doublestar patterns p and q (braces already expanded): "**" is any
// number of segments, and within a segment '*' is any run of characters,
// '?' one, [...] a class, '\' escapes the next character.
func globsMeet(p, q string) bool {
	ps, qs := strings.Split(p, "/"), strings.Split(q, "/")
	// Two literal segments that differ before either glob's first "**"
	// settle it at once (most pairs).
	for k := 0; k < len(ps) && k < len(qs) && ps[k] != "**" && qs[k] != "**"; k++ {
		if !hasMeta(ps[k]) && !hasMeta(qs[k]) && ps[k] != qs[k] {
			return false
		}
	}
	type st struct{ i, j int }
	seen := map[st]bool{}
	var walk func(i, j int) bool
	walk = func(i, j int) bool {
		k := st{i, j}
		if seen[k] {
			return false
		}
		seen[k] = true
		if i == len(ps) && j == len(qs) {
			return true
		}
		if i < len(ps) && ps[i] == "**" {
			if walk(i+1, j) || (j < len(qs) && walk(i, j+1)) {
				return true
			}
		}
		if j < len(qs) && qs[j] == "**" {
			if walk(i, j+1) || (i < len(ps) && walk(i+1, j)) {
				return true
			}
		}
		if i < len(ps) && j < len(qs) && ps[i] != "**" && qs[j] != "**" && segmentsMeet(ps[i], qs[j]) {
			return walk(i+1, j+1)
		}
		return false
	}
	return walk(0, 0)
}

// segTok is one token of a segment pattern: a star, or a set of
// characters (one literal, any for '?', a class).
type segTok struct {
	star bool
	any  bool
	neg  bool
	set  string // literal characters and a-z ranges as "az"
	rng  [][2]rune
}

func (t segTok) has(c rune) bool {
	if t.any || t.star {
		return true
	}
	in := strings.ContainsRune(t.set, c)
	for _, r := range t.rng {
		if c >= r[0] && c <= r[1] {
			in = true
		}
	}
	return in != t.neg
}

func segTokens(s string) []segTok {
	var out []segTok
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			out = append(out, segTok{star: true})
		case '?':
			out = append(out, segTok{any: true})
		case '\\':
			if i+1 < len(rs) {
				i++
			}
			out = append(out, segTok{set: string(rs[i])})
		case '[':
			t := segTok{}
			j := i + 1
			if j < len(rs) && (rs[j] == '!' || rs[j] == '^') {
				t.neg = true
				j++
			}
			for ; j < len(rs) && rs[j] != ']'; j++ {
				if j+2 < len(rs) && rs[j+1] == '-' && rs[j+2] != ']' {
					t.rng = append(t.rng, [2]rune{rs[j], rs[j+2]})
					j += 2
					continue
				}
				t.set += string(rs[j])
			}
			i = j
			out = append(out, t)
		default:
			out = append(out, segTok{set: string(c)})
		}
	}
	return out
}

// tokensMeet reports whether one character matches both tokens (for two
// classes, it tries printable ASCII).
func tokensMeet(a, b segTok) bool {
	switch {
	case a.any || a.star:
		return b.any || b.star || b.neg || b.set != "" || len(b.rng) > 0
	case b.any || b.star:
		return true
	}
	for c := rune(0x20); c < 0x7f; c++ {
		if a.has(c) && b.has(c) {
			return true
		}
	}
	for _, c := range a.set + b.set {
		if a.has(c) && b.has(c) {
			return true
		}
	}
	return false
}

// segmentsMeet reports whether some segment (a non-empty name) matches
// both segment patterns.
func segmentsMeet(p, q string) bool {
	a, b := segTokens(p), segTokens(q)
	type st struct{ i, j int }
	seen := map[st]bool{}
	var walk func(i, j int) bool
	walk = func(i, j int) bool {
		k := st{i, j}
		if seen[k] {
			return false
		}
		seen[k] = true
		if i == len(a) && j == len(b) {
			return true
		}
		if i < len(a) && a[i].star && walk(i+1, j) {
			return true
		}
		if j < len(b) && b[j].star && walk(i, j+1) {
			return true
		}
		if i < len(a) && j < len(b) && tokensMeet(a[i], b[j]) {
			ni, nj := i+1, j+1
			if a[i].star {
				ni = i
			}
			if b[j].star {
				nj = j
			}
			if (ni != i || nj != j) && walk(ni, nj) {
				return true
			}
			if a[i].star && b[j].star {
				return walk(i+1, j) || walk(i, j+1)
			}
		}
		return false
	}
	return walk(0, 0)
}

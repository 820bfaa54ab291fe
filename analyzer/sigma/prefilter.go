package sigma

import (
	"regexp/syntax"
	"strings"
)

// A prefilter is a condition on literal text that every match of a
// regular expression implies, tested with strings.Contains before the
// regular expression runs: most rows of a timeline hold none of a rule's
// words, and a substring search is far cheaper than the regexp engine
// (backtracking on a 4 KiB tool output). It only ever rejects: when it
// passes, the regexp decides. Built from the parsed expression:
//
//   - a literal run of ASCII characters must appear (in the lower-cased
//     field when the literal ignores case; exactly otherwise);
//   - a concatenation needs every part's condition, an alternation one of
//     its branches', a group or a repeat at least once its body's;
//   - anything else (a class, a repeat that may be empty, a non-ASCII
//     literal) needs nothing.
//
// Case folding: Go's (?i) makes a rune match every rune of its simple
// fold orbit. Every rune in the orbit of an ASCII letter lower-cases to
// that letter, except U+017F (long s, in the orbit of s), so a field whose
// lower-cased text holds U+017F skips the folded prefilter.
type prefilter struct {
	op   byte // 'l' literal, 'a' all of kids, 'o' one of kids
	lit  string
	fold bool // lit is lower-cased and compared with the lower-cased field
	kids []*prefilter
}

// maxPrefilterLits bounds a prefilter's literals; a larger expression
// gets none (the regexp alone decides).
const maxPrefilterLits = 256

// newPrefilter returns the prefilter of a Go regular expression, or nil
// when it implies no literal.
func newPrefilter(expr string) *prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	p := buildPrefilter(re)
	if p == nil || p.count() > maxPrefilterLits {
		return nil
	}
	return p
}

func (p *prefilter) count() int {
	if p.op == 'l' {
		return 1
	}
	n := 0
	for _, k := range p.kids {
		n += k.count()
	}
	return n
}

// needsFold reports whether some literal compares the lower-cased field.
func (p *prefilter) needsFold() bool {
	if p == nil {
		return false
	}
	if p.op == 'l' {
		return p.fold
	}
	for _, k := range p.kids {
		if k.needsFold() {
			return true
		}
	}
	return false
}

func buildPrefilter(re *syntax.Regexp) *prefilter {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		var all []*prefilter
		var run []rune
		flush := func() {
			if len(run) > 0 {
				s := string(run)
				if fold {
					s = strings.ToLower(s)
				}
				all = append(all, &prefilter{op: 'l', lit: s, fold: fold})
				run = run[:0]
			}
		}
		for _, r := range re.Rune {
			if r < 0x80 {
				run = append(run, r)
				continue
			}
			flush()
		}
		flush()
		return allOf(all)
	case syntax.OpConcat:
		var all []*prefilter
		for _, s := range re.Sub {
			if p := buildPrefilter(s); p != nil {
				all = append(all, p)
			}
		}
		return allOf(all)
	case syntax.OpAlternate:
		var any []*prefilter
		for _, s := range re.Sub {
			p := buildPrefilter(s)
			if p == nil {
				return nil // this branch needs nothing: neither does the whole
			}
			any = append(any, p)
		}
		if len(any) == 1 {
			return any[0]
		}
		return &prefilter{op: 'o', kids: any}
	case syntax.OpCapture, syntax.OpPlus:
		return buildPrefilter(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return buildPrefilter(re.Sub[0])
		}
	}
	return nil
}

func allOf(ps []*prefilter) *prefilter {
	switch len(ps) {
	case 0:
		return nil
	case 1:
		return ps[0]
	}
	return &prefilter{op: 'a', kids: ps}
}

// longS is U+017F, which (?i) matches to s but lower-cases to itself.
const longS = "\u017f"

// pass reports whether v (lower: v lower-cased, or "" when no literal is
// folded) may match; false means it cannot.
func (p *prefilter) pass(v, lower string) bool {
	switch p.op {
	case 'l':
		if p.fold {
			return strings.Contains(lower, p.lit) || strings.Contains(lower, longS)
		}
		return strings.Contains(v, p.lit)
	case 'a':
		for _, k := range p.kids {
			if !k.pass(v, lower) {
				return false
			}
		}
		return true
	}
	for _, k := range p.kids {
		if k.pass(v, lower) {
			return true
		}
	}
	return false
}

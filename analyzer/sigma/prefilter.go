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
	if set, fold, ok := exactSet(re); ok {
		return oneOfExact(set, fold)
	}
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
		// Runs of parts with few exact texts are joined (their texts
		// stand next to each other in a match): "nc|netcat" parses as n
		// then (c|etcat), which needs "nc" or "netcat", not an n and a c
		// anywhere.
		var all []*prefilter
		for i := 0; i < len(re.Sub); {
			j, set, fold := exactRun(re.Sub[i:])
			if j > 1 {
				if p := oneOfExact(set, fold); p != nil {
					all = append(all, p)
				}
				i += j
				continue
			}
			if p := buildPrefilter(re.Sub[i]); p != nil {
				all = append(all, p)
			}
			i++
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

// maxExact bounds the texts of an exact set.
const maxExact = 16

// Fold states of an exact set: no letter yet, letters folded (the texts
// are lower-cased, compared with the lower-cased field), letters cased.
const (
	foldNone = iota
	foldYes
	foldNo
)

// exactSet returns every text re can match, when they are at most
// maxExact, all ASCII, and their letters all folded or all cased
// (fold then says which); zero-width assertions match "".
func exactSet(re *syntax.Regexp) (set []string, fold int, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		var b []byte
		f := foldNone
		for _, r := range re.Rune {
			if r >= 0x80 {
				return nil, 0, false
			}
			if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
				f = foldNo
				if re.Flags&syntax.FoldCase != 0 {
					f = foldYes
					if 'A' <= r && r <= 'Z' {
						r += 'a' - 'A'
					}
				}
			}
			b = append(b, byte(r))
		}
		return []string{string(b)}, f, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, foldNone, true
	case syntax.OpCapture:
		return exactSet(re.Sub[0])
	case syntax.OpQuest:
		set, fold, ok := exactSet(re.Sub[0])
		if !ok || len(set) >= maxExact {
			return nil, 0, false
		}
		return append(set, ""), fold, true
	case syntax.OpAlternate:
		var all []string
		fold := foldNone
		for _, s := range re.Sub {
			set, f, ok := exactSet(s)
			if fold, ok = joinFold(fold, f, ok); !ok || len(all)+len(set) > maxExact {
				return nil, 0, false
			}
			all = append(all, set...)
		}
		return all, fold, true
	case syntax.OpConcat:
		j, set, fold := exactRun(re.Sub)
		if j < len(re.Sub) {
			return nil, 0, false
		}
		return set, fold, true
	}
	return nil, 0, false
}

// exactRun joins the exact sets of the longest run of subs that have one
// (and whose product stays within maxExact): it returns the run's length
// (0 when the first has none), the texts and their fold state.
func exactRun(subs []*syntax.Regexp) (n int, set []string, fold int) {
	set = []string{""}
	for _, s := range subs {
		next, f, ok := exactSet(s)
		if !ok || len(set)*len(next) > maxExact {
			break
		}
		nf, ok := joinFold(fold, f, true)
		if !ok {
			break
		}
		var prod []string
		for _, a := range set {
			for _, b := range next {
				prod = append(prod, a+b)
			}
		}
		set, fold = prod, nf
		n++
	}
	return n, set, fold
}

// joinFold is the fold state of texts of states a and b together (false
// when one folds its letters and the other does not).
func joinFold(a, b int, ok bool) (int, bool) {
	switch {
	case !ok:
		return 0, false
	case a == foldNone:
		return b, true
	case b == foldNone || a == b:
		return a, true
	}
	return 0, false
}

// oneOfExact is the prefilter of an exact set: one of its texts must
// appear; nil when one of them is "" (then nothing is needed).
func oneOfExact(set []string, fold int) *prefilter {
	var any []*prefilter
	seen := map[string]bool{}
	for _, s := range set {
		if s == "" {
			return nil
		}
		if !seen[s] {
			seen[s] = true
			any = append(any, &prefilter{op: 'l', lit: s, fold: fold == foldYes})
		}
	}
	if len(any) == 1 {
		return any[0]
	}
	return &prefilter{op: 'o', kids: any}
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

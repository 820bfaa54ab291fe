// Package sigma evaluates the subset of Sigma detection rules
// (https://sigmahq.io, the format Hayabusa and Chainsaw share) that
// DoubleAgent's rules use, over timeline rows. No Go Sigma library is
// served here, so this package implements exactly:
//
//   - search identifiers that are a map (every field matches: AND), a list
//     of maps (any map matches: OR), or a list of plain strings (keywords:
//     any string field of the row contains one);
//   - field values that are a string, a number, null (the field is empty)
//     or a list of those (any matches, or every one with |all);
//   - the modifiers contains, startswith, endswith, all, re (Go RE2, case
//     sensitive as Sigma specifies, with its sub-modifiers i, m and s),
//     cased and exists; without cased, comparisons ignore case (both sides
//     lower-cased; a value without wildcards is compared as text, with no
//     regular expression, and a Row that implements Lowerer lower-cases each
//     field once for every rule), and * and ? in a
//     plain value are wildcards, as Sigma specifies (\* and \? match the
//     characters themselves); every regular expression (a wildcard value
//     or re) first tests the literal text all its matches hold, with a
//     substring search (prefilter.go), and runs only when that passes;
//   - conditions of identifiers combined with and, or, not and
//     parentheses, and "1 of X*", "all of X*", "1 of them", "all of them".
//
// A rule using anything else (other modifiers, aggregations, correlations)
// is rejected when parsed, never silently half-evaluated. Rules stay valid
// Sigma, so they also run in any Sigma backend over the JSONL or Parquet
// timeline.
package sigma

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Rule is one parsed Sigma rule.
type Rule struct {
	Title          string   `yaml:"title"`
	ID             string   `yaml:"id"`
	Status         string   `yaml:"status"`
	Description    string   `yaml:"description"`
	References     []string `yaml:"references"`
	Author         string   `yaml:"author"`
	Date           string   `yaml:"date"`
	Tags           []string `yaml:"tags"`
	Level          string   `yaml:"level"`
	FalsePositives []string `yaml:"falsepositives"`
	LogSource      struct {
		Product  string `yaml:"product"`
		Category string `yaml:"category"`
		Service  string `yaml:"service"`
	} `yaml:"logsource"`
	Detection map[string]yaml.Node `yaml:"detection"`

	searches map[string]search
	cond     node
}

// Row is what a rule is evaluated over: a field's value by name (ok false
// when the row has no such field), and every string field for keywords.
type Row interface {
	Field(name string) (string, bool)
	Fields() []string
}

// Levels Sigma allows.
var Levels = []string{"informational", "low", "medium", "high", "critical"}

// Parse reads one rule and compiles its detection.
func Parse(b []byte) (*Rule, error) {
	var r Rule
	if err := yaml.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	for _, k := range []struct{ name, v string }{{"title", r.Title}, {"id", r.ID}, {"level", r.Level}, {"logsource.product", r.LogSource.Product}} {
		if strings.TrimSpace(k.v) == "" {
			return nil, fmt.Errorf("rule %q: %s is required", r.Title, k.name)
		}
	}
	okLevel := false
	for _, l := range Levels {
		okLevel = okLevel || l == r.Level
	}
	if !okLevel {
		return nil, fmt.Errorf("rule %s: level %q is not one of %v", r.ID, r.Level, Levels)
	}
	cn, ok := r.Detection["condition"]
	if !ok {
		return nil, fmt.Errorf("rule %s: detection has no condition", r.ID)
	}
	var condText string
	if err := cn.Decode(&condText); err != nil {
		return nil, fmt.Errorf("rule %s: condition must be one string: %w", r.ID, err)
	}
	r.searches = map[string]search{}
	for name, n := range r.Detection {
		if name == "condition" {
			continue
		}
		if name == "timeframe" {
			return nil, fmt.Errorf("rule %s: timeframe is not supported", r.ID)
		}
		s, err := compileSearch(&n)
		if err != nil {
			return nil, fmt.Errorf("rule %s: %s: %w", r.ID, name, err)
		}
		r.searches[name] = s
	}
	c, err := parseCondition(condText, r.searches)
	if err != nil {
		return nil, fmt.Errorf("rule %s: condition %q: %w", r.ID, condText, err)
	}
	r.cond = c
	return &r, nil
}

// Match reports whether row matches the rule.
func (r *Rule) Match(row Row) bool { return r.cond.eval(row) }

// search is one search identifier: any of its alternatives matches.
type search struct {
	alts     [][]fieldCond // OR of ANDs
	keywords []matcher     // keywords: any string field contains one
}

func (s search) eval(row Row) bool {
	if s.keywords != nil {
		for _, f := range row.Fields() {
			lower := strings.ToLower(f)
			for _, m := range s.keywords {
				if m.match(f, lower) {
					return true
				}
			}
		}
		return false
	}
	for _, and := range s.alts {
		ok := true
		for _, fc := range and {
			if !fc.eval(row) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

type fieldCond struct {
	field  string
	all    bool
	exists *bool
	vals   []matcher
	lower  bool // some value compares the lower-cased field
}

func (f fieldCond) eval(row Row) bool {
	v, ok := row.Field(f.field)
	if f.exists != nil {
		return (ok && v != "") == *f.exists
	}
	lower := ""
	if f.lower {
		lower = lowerOf(row, f.field, v)
	}
	if f.all {
		for _, m := range f.vals {
			if !m.match(v, lower) {
				return false
			}
		}
		return len(f.vals) > 0
	}
	for _, m := range f.vals {
		if m.match(v, lower) {
			return true
		}
	}
	return false
}

// Lowerer is implemented by a Row that keeps its fields lower-cased, so
// that several rules comparing one field compute it once.
type Lowerer interface {
	Lower(field string) string
}

func lowerOf(row Row, field, v string) string {
	if l, ok := row.(Lowerer); ok {
		return l.Lower(field)
	}
	return strings.ToLower(v)
}

// matcher tests one value. A value without wildcards is compared as a
// literal (lower-cased unless cased: the caller passes the lower-cased
// field); one with * or ?, or a re value, is a regular expression.
type matcher struct {
	re    *regexp.Regexp
	pre   *prefilter // literals every match of re holds (nil: none)
	null  bool       // matches an empty value
	op    litOp      // for a literal
	lit   string     // lower-cased unless cased
	cased bool
}

type litOp uint8

const (
	opRegexp litOp = iota
	opEqual
	opPrefix
	opSuffix
	opContains
)

// match tests v; lower is v lower-cased (used by a literal not cased).
func (m matcher) match(v, lower string) bool {
	if m.null {
		return v == ""
	}
	if m.re != nil {
		if m.pre != nil && !m.pre.pass(v, lower) {
			return false
		}
		return m.re.MatchString(v)
	}
	s := lower
	if m.cased {
		s = v
	}
	switch m.op {
	case opEqual:
		return s == m.lit
	case opPrefix:
		return strings.HasPrefix(s, m.lit)
	case opSuffix:
		return strings.HasSuffix(s, m.lit)
	}
	return strings.Contains(s, m.lit)
}

// needsLower reports whether the matcher reads the lower-cased value (a
// literal not cased, or a regexp's prefilter).
func (m matcher) needsLower() bool {
	return !m.null && ((m.re == nil && !m.cased) || m.pre.needsFold())
}

// compileRegexp compiles a regexp matcher with its literal prefilter.
func compileRegexp(expr string) (matcher, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return matcher{}, err
	}
	return matcher{re: re, pre: newPrefilter(expr)}, nil
}

// cost orders a map's fields, cheapest first (then by name, so the order
// is fixed): a row is rejected on its turn type before a long text is
// searched.
func (f fieldCond) cost() int {
	if f.exists != nil {
		return 0
	}
	c := 0
	for _, m := range f.vals {
		k := 4
		switch {
		case m.null, m.re == nil && m.op == opEqual:
			k = 1
		case m.re == nil && (m.op == opPrefix || m.op == opSuffix):
			k = 2
		case m.re == nil:
			k = 3
		}
		c = max(c, k)
	}
	return c
}

// deref resolves a YAML alias (*name) to the node its anchor (&name)
// marks, so a rule can name one list of values twice.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 8; i++ {
		n = n.Alias
	}
	return n
}

func compileSearch(n *yaml.Node) (search, error) {
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		and, err := compileMap(n)
		if err != nil {
			return search{}, err
		}
		return search{alts: [][]fieldCond{and}}, nil
	case yaml.SequenceNode:
		var s search
		for _, item := range n.Content {
			item = deref(item)
			switch item.Kind {
			case yaml.MappingNode:
				and, err := compileMap(item)
				if err != nil {
					return search{}, err
				}
				s.alts = append(s.alts, and)
			case yaml.ScalarNode:
				m, err := valueMatcher(item, []string{"contains"})
				if err != nil {
					return search{}, err
				}
				s.keywords = append(s.keywords, m)
			default:
				return search{}, errors.New("a list item must be a map or a keyword")
			}
		}
		if s.alts != nil && s.keywords != nil {
			return search{}, errors.New("a list mixes maps and keywords")
		}
		return s, nil
	}
	return search{}, errors.New("a search identifier must be a map or a list")
}

var knownMods = map[string]bool{"contains": true, "startswith": true, "endswith": true, "all": true, "re": true, "cased": true, "exists": true, "i": true, "m": true, "s": true}

// reFlags are the sub-modifiers of re (Sigma 2: re|i ignore case, re|m
// multi-line, re|s dot matches new line).
var reFlags = map[string]string{"i": "i", "m": "m", "s": "s"}

func compileMap(n *yaml.Node) ([]fieldCond, error) {
	var out []fieldCond
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i].Value, deref(n.Content[i+1])
		parts := strings.Split(key, "|")
		fc := fieldCond{field: parts[0]}
		mods := parts[1:]
		for _, m := range mods {
			if !knownMods[m] {
				return nil, fmt.Errorf("modifier %q is not supported", m)
			}
			if reFlags[m] != "" && !slicesContains(mods, "re") {
				return nil, fmt.Errorf("modifier %q is a sub-modifier of re", m)
			}
			if m == "all" {
				fc.all = true
			}
		}
		if slicesContains(mods, "exists") {
			var b bool
			if err := val.Decode(&b); err != nil {
				return nil, fmt.Errorf("%s: exists takes true or false", key)
			}
			fc.exists = &b
			out = append(out, fc)
			continue
		}
		items := []*yaml.Node{val}
		if val.Kind == yaml.SequenceNode {
			items = val.Content
		}
		for _, it := range items {
			m, err := valueMatcher(deref(it), mods)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
			fc.vals = append(fc.vals, m)
			fc.lower = fc.lower || m.needsLower()
		}
		out = append(out, fc)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ci, cj := out[i].cost(), out[j].cost(); ci != cj {
			return ci < cj
		}
		return out[i].field < out[j].field
	})
	return out, nil
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// valueMatcher compiles one value with its modifiers.
func valueMatcher(n *yaml.Node, mods []string) (matcher, error) {
	if n.Kind != yaml.ScalarNode {
		return matcher{}, errors.New("a value must be a string, a number or null")
	}
	if n.Tag == "!!null" {
		return matcher{null: true}, nil
	}
	v := n.Value
	cased := slicesContains(mods, "cased")
	if slicesContains(mods, "re") {
		flags := ""
		for _, m := range mods {
			flags += reFlags[m]
		}
		if flags != "" {
			v = "(?" + flags + ")" + v
		}
		return compileRegexp(v)
	}
	if lit, ok := literal(v); ok {
		m := matcher{op: opEqual, lit: lit, cased: cased}
		switch {
		case slicesContains(mods, "contains"):
			m.op = opContains
		case slicesContains(mods, "startswith"):
			m.op = opPrefix
		case slicesContains(mods, "endswith"):
			m.op = opSuffix
		}
		if !cased {
			m.lit = strings.ToLower(lit)
		}
		return m, nil
	}
	pat := globToRegexp(v)
	switch {
	case slicesContains(mods, "contains"):
	case slicesContains(mods, "startswith"):
		pat = "^" + pat
	case slicesContains(mods, "endswith"):
		pat = pat + "$"
	default:
		pat = "^" + pat + "$"
	}
	if !cased {
		pat = "(?is)" + pat
	} else {
		pat = "(?s)" + pat
	}
	return compileRegexp(pat)
}

// literal returns a value without wildcards as the text it stands for
// (\*, \? and \\ unescaped); ok is false when it has a wildcard.
func literal(v string) (string, bool) {
	if !strings.ContainsAny(v, "*?\\") {
		return v, true
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && (v[i+1] == '*' || v[i+1] == '?' || v[i+1] == '\\'):
			b.WriteByte(v[i+1])
			i++
		case c == '*' || c == '?':
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// globToRegexp turns a Sigma value into a regular expression: * and ? are
// wildcards, \* \? and \\ stand for themselves.
func globToRegexp(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && (v[i+1] == '*' || v[i+1] == '?' || v[i+1] == '\\'):
			b.WriteString(regexp.QuoteMeta(string(v[i+1])))
			i++
		case c == '*':
			b.WriteString(".*")
		case c == '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// Conditions.

type node interface{ eval(Row) bool }

type andNode []node
type orNode []node
type notNode struct{ n node }
type refNode struct{ s search }
type ofNode struct {
	all  bool
	refs []search
}

func (a andNode) eval(r Row) bool {
	for _, n := range a {
		if !n.eval(r) {
			return false
		}
	}
	return true
}

func (o orNode) eval(r Row) bool {
	for _, n := range o {
		if n.eval(r) {
			return true
		}
	}
	return false
}

func (n notNode) eval(r Row) bool { return !n.n.eval(r) }
func (n refNode) eval(r Row) bool { return n.s.eval(r) }

func (o ofNode) eval(r Row) bool {
	for _, s := range o.refs {
		m := s.eval(r)
		if o.all && !m {
			return false
		}
		if !o.all && m {
			return true
		}
	}
	return o.all && len(o.refs) > 0
}

type condParser struct {
	toks     []string
	pos      int
	searches map[string]search
}

func parseCondition(s string, searches map[string]search) (node, error) {
	p := &condParser{toks: tokenize(s), searches: searches}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, fmt.Errorf("unexpected %q", p.toks[p.pos])
	}
	return n, nil
}

func tokenize(s string) []string {
	s = strings.NewReplacer("(", " ( ", ")", " ) ").Replace(s)
	return strings.Fields(s)
}

func (p *condParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *condParser) or() (node, error) {
	n, err := p.and()
	if err != nil {
		return nil, err
	}
	out := orNode{n}
	for strings.EqualFold(p.peek(), "or") {
		p.pos++
		m, err := p.and()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 1 {
		return out[0], nil
	}
	return out, nil
}

func (p *condParser) and() (node, error) {
	n, err := p.unary()
	if err != nil {
		return nil, err
	}
	out := andNode{n}
	for strings.EqualFold(p.peek(), "and") {
		p.pos++
		m, err := p.unary()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 1 {
		return out[0], nil
	}
	return out, nil
}

func (p *condParser) unary() (node, error) {
	t := p.peek()
	switch {
	case t == "":
		return nil, errors.New("unexpected end")
	case strings.EqualFold(t, "not"):
		p.pos++
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return notNode{n}, nil
	case t == "(":
		p.pos++
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, errors.New("missing )")
		}
		p.pos++
		return n, nil
	case t == "1" || strings.EqualFold(t, "all"):
		if p.pos+2 >= len(p.toks) || !strings.EqualFold(p.toks[p.pos+1], "of") {
			return nil, fmt.Errorf("%q must be followed by of", t)
		}
		target := p.toks[p.pos+2]
		p.pos += 3
		var names []string
		for name := range p.searches {
			if strings.EqualFold(target, "them") || globMatch(target, name) {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s of %s names no search", t, target)
		}
		sort.Strings(names)
		o := ofNode{all: strings.EqualFold(t, "all")}
		for _, n := range names {
			o.refs = append(o.refs, p.searches[n])
		}
		return o, nil
	}
	if n, err := strconv.Atoi(t); err == nil && n != 1 {
		return nil, fmt.Errorf("%d of ... is not supported (only 1 of and all of)", n)
	}
	s, ok := p.searches[t]
	if !ok {
		return nil, fmt.Errorf("no search named %q", t)
	}
	p.pos++
	return refNode{s}, nil
}

func globMatch(pattern, name string) bool {
	m, _ := path.Match(pattern, name)
	return m
}

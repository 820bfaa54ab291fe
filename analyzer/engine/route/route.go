package route

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/catalog"
)

// Router routes collected files to the parsers of a run.
type Router struct {
	parsers []parser.Parser
	agents  map[string]bool
	// secrets are the agents one of whose parsers reads secret-kind files.
	secrets map[string]bool
}

// New makes the router of the parsers ps (in the order given: a file's
// parsers run in that order).
func New(ps []parser.Parser) *Router {
	r := &Router{parsers: ps, agents: map[string]bool{}, secrets: map[string]bool{}}
	for _, p := range ps {
		r.agents[p.Agent()] = true
		if readsSecrets(p) {
			r.secrets[p.Agent()] = true
		}
	}
	return r
}

func readsSecrets(p parser.Parser) bool {
	sp, ok := p.(parser.Specced)
	return ok && sp.Spec().ReadsSecretKind
}

// Parsers are the parsers of the run.
func (r *Router) Parsers() []parser.Parser { return r.parsers }

// Reads reports whether some parser reads agent's files.
func (r *Router) Reads(agent string) bool { return r.agents[agent] }

// Wants reports whether some parser may read a file of agent and kind.
func (r *Router) Wants(agent string, kind catalog.Kind) bool {
	if !r.agents[agent] {
		return false
	}
	return kind != catalog.KindSecret || r.secrets[agent]
}

// Matches reports whether p reads f: secret-kind files only go to parsers
// that declare ReadsSecretKind.
func Matches(p parser.Parser, f *parser.File) bool {
	if f.Kind == catalog.KindSecret && !readsSecrets(p) {
		return false
	}
	return p.Match(f)
}

// For returns the parsers that read f, in the run's order.
func (r *Router) For(f *parser.File) []parser.Parser {
	var out []parser.Parser
	for _, p := range r.parsers {
		if Matches(p, f) {
			out = append(out, p)
		}
	}
	return out
}

// Streams reports whether f may be parsed from a bundle's stream rather
// than spooled (inputs.Source.Stream): exactly one parser reads it, that
// parser declares Streamable, and f is not a SQLite store (which is opened
// by path).
func Streams(ps []parser.Parser, f *parser.File) bool {
	if len(ps) != 1 || f.Kind == catalog.KindSQLite {
		return false
	}
	sp, ok := ps[0].(parser.Specced)
	return ok && sp.Spec().Streamable
}

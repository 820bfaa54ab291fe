package route_test

import (
	"context"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/engine/route"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/catalog"
)

type fake struct {
	id, agent string
	secrets   bool
}

func (f fake) ID() string                                              { return f.id }
func (f fake) Agent() string                                           { return f.agent }
func (f fake) Version() int                                            { return 1 }
func (f fake) Match(fl *parser.File) bool                              { return fl.Agent == f.agent }
func (f fake) Parse(context.Context, *parser.Input, parser.Sink) error { return nil }
func (f fake) Spec() parser.Spec                                       { return parser.Spec{ReadsSecretKind: f.secrets} }

func ids(ps []parser.Parser) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.ID())
	}
	return strings.Join(s, " ")
}

// A secret-kind file goes only to the parsers that declare they read one;
// an agent no parser reads is not wanted at all.
func TestRouting(t *testing.T) {
	r := route.New([]parser.Parser{fake{"a/x", "a", false}, fake{"a/keys", "a", true}, fake{"b/x", "b", false}})
	for _, c := range []struct {
		agent string
		kind  catalog.Kind
		want  bool
		to    string
	}{
		{"a", catalog.KindTranscript, true, "a/x a/keys"},
		{"a", catalog.KindSecret, true, "a/keys"},
		{"b", catalog.KindSecret, false, ""},
		{"b", catalog.KindTranscript, true, "b/x"},
		{"c", catalog.KindTranscript, false, ""},
	} {
		if got := r.Wants(c.agent, c.kind); got != c.want {
			t.Errorf("Wants(%s, %s) = %v, want %v", c.agent, c.kind, got, c.want)
		}
		if got := ids(r.For(&parser.File{Agent: c.agent, Kind: c.kind})); got != c.to {
			t.Errorf("For(%s, %s) = %q, want %q", c.agent, c.kind, got, c.to)
		}
	}
	if !r.Reads("b") || r.Reads("c") || len(r.Parsers()) != 3 {
		t.Errorf("Reads(b)=%v Reads(c)=%v parsers=%d", r.Reads("b"), r.Reads("c"), len(r.Parsers()))
	}
}

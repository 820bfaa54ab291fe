package copilot

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

// TestAccounts: one row per account of apps.json and hosts.json with
// user, host and app, saying a token is stored; no token value anywhere
// in the output; an entry that is no object is a problem naming it.
func TestAccounts(t *testing.T) {
	for _, c := range []struct {
		name, golden string
		want         []string
		problems     []string
	}{
		{"apps.json", "apps", []string{
			"copilot account: user=jdoe host=ghe.example.com app=Iv1.0000000000000001 (an OAuth token is stored; not read) (from .config/github-copilot/apps.json, file mtime)",
			"copilot account: user=octo-examiner host=github.com app=Iv1.b507a08c87ecfe98 (an OAuth token is stored; not read) (from .config/github-copilot/apps.json, file mtime)",
		}, nil},
		{"hosts.json", "hosts", []string{
			"copilot account: user=octo-examiner host=github.com (an OAuth token is stored; not read) (from .config/github-copilot/hosts.json, file mtime)",
		}, []string{`line 1: account entry "broken" is not an object: not read`}},
	} {
		rel := ".config/github-copilot/" + c.name
		in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: "tokens", Kind: "secret",
			MTime: time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)}, nil)
		s := parsertest.Golden(t, byID(t, "copilot/account"), in, "testdata/"+c.golden+".golden.jsonl")
		var got []string
		for _, e := range s.Events {
			got = append(got, e.Text)
			if strings.Contains(e.Text+e.ToolInput, "SECRET") {
				t.Errorf("row carries a token: %q", e.Text)
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s rows:\n%s\nwant:\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
		if strings.Join(s.Problems, "\n") != strings.Join(c.problems, "\n") {
			t.Errorf("%s problems %q, want %q", c.name, s.Problems, c.problems)
		}
	}
}

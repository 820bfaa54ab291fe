package parsers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/catalog"
)

// agentPackage is what the checklist checks know of one package under
// parsers/: its directory name and the parsers its versions.json records.
type agentPackage struct {
	dir     string
	parsers []parser.Spec
}

// checklist holds one check per item of analyzer/docs/adding-an-agent.md,
// keyed by the item's [check: id]. Each returns what is missing.
var checklist = map[string]func(p agentPackage, ctx *checkContext) []string{
	"catalog-entry": func(p agentPackage, c *checkContext) []string {
		var miss []string
		for _, s := range p.parsers {
			if _, ok := catalog.Lookup(s.Agent); !ok {
				miss = append(miss, "catalog has no agent "+s.Agent+" (parser "+s.ID+")")
			}
		}
		return miss
	},
	"parser-package": func(p agentPackage, c *checkContext) []string {
		b, err := os.ReadFile(filepath.Join(p.dir, "doc.go"))
		if err != nil || !strings.Contains(string(b), "// Package "+filepath.Base(p.dir)+" ") {
			return []string{"doc.go with // Package " + filepath.Base(p.dir)}
		}
		return nil
	},
	"registry-line": func(p agentPackage, c *checkContext) []string {
		if !strings.Contains(c.allGo, "\t"+filepath.Base(p.dir)+".") {
			return []string{"a line " + filepath.Base(p.dir) + ".Parsers() in all.go"}
		}
		return nil
	},
	"test-main": func(p agentPackage, c *checkContext) []string {
		b, _ := os.ReadFile(filepath.Join(p.dir, "main_test.go"))
		if !strings.Contains(string(b), "parsertest.Main(m)") {
			return []string{"main_test.go calling parsertest.Main(m)"}
		}
		return nil
	},
	"goldens": func(p agentPackage, c *checkContext) []string {
		if len(p.parsers) == 0 {
			return []string{"testdata/versions.json recording a parser and its goldens"}
		}
		goldens, _ := filepath.Glob(filepath.Join(p.dir, "testdata", "*.golden.jsonl"))
		deeper, _ := filepath.Glob(filepath.Join(p.dir, "testdata", "*", "*.golden.jsonl"))
		if len(goldens)+len(deeper) == 0 {
			return []string{"testdata/<case>.golden.jsonl"}
		}
		return nil
	},
	"actions": func(p agentPackage, c *checkContext) []string {
		for _, s := range p.parsers {
			if s.Actions != nil {
				return nil
			}
		}
		if c.noTools[filepath.Base(p.dir)] {
			return nil
		}
		return []string{"an actions table (Spec.Actions) on its parsers"}
	},
	"generated-docs": func(p agentPackage, c *checkContext) []string {
		var miss []string
		for _, s := range p.parsers {
			if !strings.Contains(c.parsersMd, "`"+s.ID+"`") {
				miss = append(miss, "analyzer/docs/parsers.md row for "+s.ID)
			}
			if !strings.Contains(c.agentsMd, "## "+s.Agent+"\n") {
				miss = append(miss, "catalog/docs/agents.md section for "+s.Agent)
			}
		}
		return miss
	},
}

type checkContext struct {
	allGo, parsersMd, agentsMd string
	noTools                    map[string]bool
}

var checkRe = regexp.MustCompile("(?m)^\\d+\\. .*`\\[check: ([a-z-]+)\\]`")

// TestAddingAnAgentChecklist keeps analyzer/docs/adding-an-agent.md true:
// its items and the checks above are the same set, and every agent package
// in the registry passes every check.
func TestAddingAnAgentChecklist(t *testing.T) {
	doc, err := os.ReadFile("../docs/adding-an-agent.md")
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	for _, m := range checkRe.FindAllStringSubmatch(string(doc), -1) {
		items = append(items, m[1])
		if checklist[m[1]] == nil {
			t.Errorf("adding-an-agent.md item [check: %s] has no check in checklist_test.go", m[1])
		}
	}
	if len(items) != len(checklist) {
		t.Errorf("adding-an-agent.md has %d checked items, checklist_test.go %d checks", len(items), len(checklist))
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	ctx := &checkContext{
		allGo:     read("all.go"),
		parsersMd: read("../docs/parsers.md"),
		agentsMd:  read("../../catalog/docs/agents.md"),
		// Packages that write no tool_use rows: aider records edits as
		// chat text, chatgpt-desktop's files hold no tool calls, muse-code's
		// tool events are system rows, copilot's token store holds accounts,
		// metagpt's config models, trae's plain store keeps prompts and
		// replies only (its tool calls are in the encrypted store).
		noTools: map[string]bool{"aider": true, "chatgptdesktop": true, "geminiapps": true, "localdeepresearch": true, "musecode": true, "copilot": true, "metagpt": true, "trae": true},
	}
	specs := map[string]parser.Spec{}
	for _, p := range parsers.All() {
		specs[p.ID()] = spec(p)
	}
	pkgs, _ := filepath.Glob("*")
	n := 0
	for _, d := range pkgs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() || d == "surface" || d == "testdata" {
			continue // surface holds one control-surface parser per agent, not an agent; testdata the cross-parser goldens
		}
		n++
		p := agentPackage{dir: d}
		var versions map[string]json.RawMessage
		if b, err := os.ReadFile(filepath.Join(d, "testdata", "versions.json")); err == nil {
			if err := json.Unmarshal(b, &versions); err != nil {
				t.Errorf("%s/testdata/versions.json: %v", d, err)
			}
		}
		ids := make([]string, 0, len(versions))
		for id := range versions {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			s, ok := specs[id]
			if !ok {
				t.Errorf("%s/testdata/versions.json records %s, which the registry does not have", d, id)
				continue
			}
			p.parsers = append(p.parsers, s)
		}
		for _, item := range items {
			if check := checklist[item]; check != nil {
				for _, m := range check(p, ctx) {
					t.Errorf("%s: [%s] missing %s", d, item, m)
				}
			}
		}
	}
	if n < 30 {
		t.Fatalf("checked %d agent packages; the walk is broken", n)
	}
}

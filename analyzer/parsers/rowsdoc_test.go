package parsers_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

// rowKinds is what one parser's goldens show of one agent's rows: the turn
// types, the actions of its tool rows (as the engine sets them from
// Spec.Actions where the parser does not), and whether any row is
// secondary or recovered from freed space.
type rowKinds struct {
	turns     map[string]bool
	actions   map[string]bool
	secondary bool
	recovered bool
}

// goldenRows reads every parser package's testdata/versions.json and the
// goldens it lists: parser id -> agent -> the row kinds its goldens show.
func goldenRows(t testing.TB) map[string]map[string]*rowKinds {
	t.Helper()
	specs := map[string]parser.Spec{}
	for _, p := range parsers.All() {
		specs[p.ID()] = spec(p)
	}
	out := map[string]map[string]*rowKinds{}
	vs, err := filepath.Glob(filepath.Join("*", "testdata", "versions.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(vs)
	for _, vf := range vs {
		pkg := filepath.Dir(filepath.Dir(vf))
		b, err := os.ReadFile(vf)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]struct {
			Goldens map[string]string `json:"goldens"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", vf, err)
		}
		for id, e := range v {
			sp, ok := specs[id]
			if !ok {
				continue
			}
			for g := range e.Goldens {
				f, err := os.Open(filepath.Join(pkg, filepath.FromSlash(g)))
				if err != nil {
					t.Fatalf("%s lists %s: %v", vf, g, err)
				}
				sc := bufio.NewScanner(f)
				sc.Buffer(make([]byte, 1<<20), 64<<20)
				for sc.Scan() {
					var r struct {
						timeline.Row
						Action *string `json:"action"`
					}
					if json.Unmarshal(sc.Bytes(), &r) != nil || r.TurnType == "" {
						continue // accounting, session state and problem lines
					}
					agent := r.Agent
					if agent == "" {
						agent = sp.Agent
					}
					if out[id] == nil {
						out[id] = map[string]*rowKinds{}
					}
					k := out[id][agent]
					if k == nil {
						k = &rowKinds{turns: map[string]bool{}, actions: map[string]bool{}}
						out[id][agent] = k
					}
					k.turns[r.TurnType] = true
					if r.TurnType == string(timeline.ToolUse) || r.TurnType == string(timeline.ToolResult) {
						a := ""
						if r.Action != nil {
							a = *r.Action
						}
						if a == "" {
							a = string(sp.Actions[r.ToolName])
						}
						if a == "" {
							a = string(timeline.ActOther)
						}
						k.actions[a] = true
					}
					k.secondary = k.secondary || r.Secondary == "true"
					k.recovered = k.recovered || r.Recovered != ""
				}
				f.Close()
				if err := sc.Err(); err != nil {
					t.Fatalf("%s: %v", g, err)
				}
			}
		}
	}
	return out
}

var turnOrder = []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System}

func (k *rowKinds) String() string {
	if k == nil {
		return "none in its goldens"
	}
	var parts []string
	for _, tt := range turnOrder {
		if !k.turns[string(tt)] {
			continue
		}
		s := string(tt)
		if tt == timeline.ToolUse && len(k.actions) > 0 {
			var as []string
			for _, a := range timeline.Actions {
				if k.actions[string(a)] {
					as = append(as, string(a))
				}
			}
			s += " (" + strings.Join(as, ", ") + ")"
		}
		parts = append(parts, s)
	}
	if k.secondary {
		parts = append(parts, "secondary rows")
	}
	if k.recovered {
		parts = append(parts, "rows recovered from freed space")
	}
	return strings.Join(parts, ", ")
}

// rowsByAgent renders parsers.md's "Rows per agent": one section per
// catalog agent a registered parser reads or emits rows for, in catalog
// order, its heading the agent's catalog name (the anchor
// catalog/docs/agents.md links to).
func rowsByAgent(t testing.TB) string {
	kinds := goldenRows(t)
	var b strings.Builder
	b.WriteString("\n## Rows per agent\n\n")
	b.WriteString("One section per catalog agent a registered parser reads (its anchor is the agent's catalog name; " +
		"each agent's section of [catalog/docs/agents.md](../../catalog/docs/agents.md) links here): each parser, " +
		"its catalog targets, and the row kinds its golden tests show for the agent: the turn types, the actions " +
		"of its tool calls, and whether rows are secondary (known only from a secondary source) or recovered " +
		"from a store's freed space. The kinds are read from the goldens each parser package's testdata/versions.json " +
		"lists, so a kind no golden shows is not claimed; the table above says what each parser reads.\n")
	by := map[string][]parser.Parser{}
	for _, p := range parsers.All() {
		by[p.Agent()] = append(by[p.Agent()], p)
		for _, e := range spec(p).Emits {
			by[e] = append(by[e], p)
		}
	}
	for _, a := range catalog.All() {
		ps := by[a.Name]
		if len(ps) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n%s.\n\n| parser | catalog targets | row kinds in its goldens |\n|---|---|---|\n", a.Name, a.Display)
		for _, p := range ps {
			s := spec(p)
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.ID(), strings.Join(s.Targets, ", "), kinds[p.ID()][a.Name])
		}
	}
	return b.String()
}

var (
	headingRe    = regexp.MustCompile(`(?m)^### ([a-z0-9-]+)$`)
	parsersMdRef = regexp.MustCompile(`\]\(\.\./\.\./analyzer/docs/parsers\.md#([^)]+)\)`)
)

// TestRowsSectionPerParsedAgent: analyzer/docs/parsers.md has a "Rows per
// agent" section for every catalog agent whose status is parsed, naming
// at least one parser and a row kind; every link from catalog/docs/agents.md
// into parsers.md names one of those sections; and every parsed agent's
// catalog section links its own.
func TestRowsSectionPerParsedAgent(t *testing.T) {
	md, err := os.ReadFile("../docs/parsers.md")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(md, []byte("\n## Rows per agent\n"))
	if i < 0 {
		t.Fatal("analyzer/docs/parsers.md has no Rows per agent section: run go test ./parsers -update")
	}
	rows := string(md[i:])
	sections := map[string]string{}
	hs := headingRe.FindAllStringSubmatchIndex(rows, -1)
	for j, h := range hs {
		end := len(rows)
		if j+1 < len(hs) {
			end = hs[j+1][0]
		}
		sections[rows[h[2]:h[3]]] = rows[h[1]:end]
	}
	for _, a := range catalog.All() {
		if a.Status != catalog.StatusParsed {
			continue
		}
		s, ok := sections[a.Name]
		if !ok {
			t.Errorf("catalog agent %s is parsed but analyzer/docs/parsers.md has no section ### %s", a.Name, a.Name)
			continue
		}
		if !strings.Contains(s, "| `") || strings.Count(s, "none in its goldens") == strings.Count(s, "| `") {
			t.Errorf("section %s names no parser with a row kind:\n%s", a.Name, s)
		}
	}
	cat, err := os.ReadFile("../../catalog/docs/agents.md")
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range parsersMdRef.FindAllStringSubmatch(string(cat), -1) {
		linked[m[1]] = true
		if _, ok := sections[m[1]]; !ok {
			t.Errorf("catalog/docs/agents.md links parsers.md#%s, which is no section there", m[1])
		}
	}
	for _, a := range catalog.All() {
		if a.Status == catalog.StatusParsed && !linked[a.Name] {
			t.Errorf("catalog/docs/agents.md does not link parsers.md#%s from the agent's section", a.Name)
		}
	}
}

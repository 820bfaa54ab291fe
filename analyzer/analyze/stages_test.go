package analyze_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const enginePrefix = "github.com/doubleagent/doubleagent/analyzer/engine/"

// stageImports is the engine's stage graph (issue 25): each package under
// analyzer/engine and the engine packages it may import. Data flows one
// way: inputs asks route which files a parser wants (route.Wants, Matches)
// and both write problem rows; parse and correlate write problem rows;
// outputs reads rows only. No stage reaches back into an earlier one; the
// analyze package runs them in order.
var stageImports = map[string][]string{
	"inputs":    {"problem", "route"},
	"route":     nil,
	"parse":     {"problem"},
	"correlate": {"problem"},
	"outputs":   nil,
	"problem":   nil,
}

// TestEngineStages: every package under analyzer/engine is a stage listed
// in stageImports, has a doc.go whose package comment opens "Package
// <name> ", and imports no engine package beyond its line (tests too).
func TestEngineStages(t *testing.T) {
	dirs, err := os.ReadDir("../engine")
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	fset := token.NewFileSet()
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		name := d.Name()
		found = append(found, name)
		allowed, ok := stageImports[name]
		if !ok {
			t.Errorf("engine/%s is not in stageImports: name its job and the stages it imports", name)
			continue
		}
		doc, err := os.ReadFile(filepath.Join("../engine", name, "doc.go"))
		if err != nil || !strings.HasPrefix(string(doc), "// Package "+name+" ") {
			t.Errorf("engine/%s has no doc.go opening %q", name, "// Package "+name+" ")
		}
		files, _ := filepath.Glob(filepath.Join("../engine", name, "*.go"))
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range af.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if !strings.HasPrefix(p, enginePrefix) {
					continue
				}
				other := strings.SplitN(strings.TrimPrefix(p, enginePrefix), "/", 2)[0]
				if other != name && !slices.Contains(allowed, other) {
					t.Errorf("%s imports engine/%s: engine/%s may import only %v", f, other, name, allowed)
				}
			}
		}
	}
	sort.Strings(found)
	var want []string
	for k := range stageImports {
		want = append(want, k)
	}
	sort.Strings(want)
	if strings.Join(found, " ") != strings.Join(want, " ") {
		t.Errorf("engine packages %v, stageImports lists %v", found, want)
	}
}

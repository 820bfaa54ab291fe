package parsers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	aparser "github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// notProblemKinds are string constants named Kind* that are not problem
// kinds: the input kinds of inventory.json and the control-surface kinds.
var notProblemKinds = map[string]bool{
	"KindBundle": true, "KindExtracted": true, "KindLoose": true, "KindFolder": true,
}

// writtenKinds scans the Go sources (tests excluded) of the analyzer (its
// parser, analyze and engine stage packages) and the bundle reader for the problem kinds they write: the constants of the
// parser (Kind*), engine (Kind*) and bundle reader (Problem*) kind blocks,
// the literal Kind of a Problem{...}, and a literal kind given to Report.
func writtenKinds(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	found := map[string]string{}
	dirs := []string{"../parser", "../analyze", "../../bundle"}
	// The engine's stage packages (analyzer/engine/*) write kinds too.
	stages, _ := filepath.Glob("../engine/*")
	dirs = append(dirs, stages...)
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "kinds.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			prefix := "Kind"
			if strings.HasSuffix(dir, "bundle") {
				prefix = "Problem"
			}
			ast.Inspect(af, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec:
					for i, name := range n.Names {
						if !strings.HasPrefix(name.Name, prefix) || notProblemKinds[name.Name] || i >= len(n.Values) {
							continue
						}
						if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, _ := strconv.Unquote(lit.Value)
							found[v] = fset.Position(name.Pos()).String()
						}
					}
				case *ast.CompositeLit:
					if id, ok := n.Type.(*ast.Ident); !ok || id.Name != "Problem" {
						return true
					}
					for _, el := range n.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Kind" {
							if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
								v, _ := strconv.Unquote(lit.Value)
								found[v] = fset.Position(lit.Pos()).String()
							}
						}
					}
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Report" && len(n.Args) == 3 {
						if lit, ok := n.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, _ := strconv.Unquote(lit.Value)
							found[v] = fset.Position(lit.Pos()).String()
						}
					}
				}
				return true
			})
		}
	}
	return found
}

// TestKindsClosed keeps parser.Kinds the closed list of problem kinds:
// every kind the analyzer or the bundle reader writes is in it, described,
// once; and every listed kind is written somewhere.
func TestKindsClosed(t *testing.T) {
	listed := map[string]bool{}
	for _, k := range aparser.Kinds {
		if listed[k.Kind] {
			t.Errorf("kind %q listed twice", k.Kind)
		}
		listed[k.Kind] = true
		if k.Doc == "" {
			t.Errorf("kind %q has no description", k.Kind)
		}
	}
	written := writtenKinds(t)
	if len(written) < 20 {
		t.Fatalf("found %d written kinds; the scan is broken", len(written))
	}
	var names []string
	for k := range written {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !listed[k] {
			t.Errorf("%s: problem kind %q is not in parser.Kinds (analyzer/parser/kinds.go): add one line there", written[k], k)
		}
	}
	for _, k := range aparser.Kinds {
		if _, ok := written[k.Kind]; !ok {
			t.Errorf("parser.Kinds lists %q, which nothing writes", k.Kind)
		}
	}
}

// kindsTable renders the generated part of output.md.
func kindsTable() string {
	var b strings.Builder
	b.WriteString("| kind | meaning |\n| --- | --- |\n")
	for _, k := range aparser.Kinds {
		b.WriteString("| `" + k.Kind + "` | " + k.Doc + " |\n")
	}
	return b.String()
}

// TestKindsDocInSync keeps output.md's table of problem kinds equal to
// parser.Kinds; go test ./parsers -update rewrites it.
func TestKindsDocInSync(t *testing.T) {
	const path = "../docs/output.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- kinds:begin -->\n", "<!-- kinds:end -->\n"
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q markers", path, begin, end)
	}
	want := s[:i+len(begin)] + kindsTable() + s[j:]
	if want == s {
		return
	}
	if *parsertest.Update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s: the table of problem kinds is out of date: run go test ./parsers -update", path)
}

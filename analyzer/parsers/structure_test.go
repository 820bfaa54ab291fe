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
)

const parsersImport = "github.com/doubleagent/doubleagent/analyzer/parsers/"

// goFiles returns the Go files (tests included) of every package directory
// below dir, keyed by the directory's path relative to dir.
func goFiles(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(dir, filepath.Dir(p))
			out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNoAgentImportsAnother keeps agents sharing formats, not packages: a
// package under parsers/<agent> may import the parser contract and the
// format packages under parser/format, never another agent's package (as
// syft keeps its catalogers apart). Only the registry (package parsers)
// imports agent packages. There is no list of exceptions: the last two
// (claude-desktop on claude-code, open-interpreter on codex) moved to
// parser/format/claudetranscript and parser/format/codexhome.
func TestNoAgentImportsAnother(t *testing.T) {
	fset := token.NewFileSet()
	pkgs := goFiles(t, ".")
	if len(pkgs) < 30 {
		t.Fatalf("found %d parser package directories; the walk is broken", len(pkgs))
	}
	for rel, files := range pkgs {
		if rel == "." {
			continue // the registry
		}
		agentPkg := strings.SplitN(rel, "/", 2)[0]
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range af.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if !strings.HasPrefix(path, parsersImport) {
					continue
				}
				other := strings.SplitN(strings.TrimPrefix(path, parsersImport), "/", 2)[0]
				if other != agentPkg {
					t.Errorf("%s imports %s: agent packages share formats through analyzer/parser/format, not each other", f, path)
				}
			}
		}
	}
	// A format package is read by agents and reads none of them.
	for _, files := range goFiles(t, "../parser/format") {
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range af.Imports {
				if path, _ := strconv.Unquote(im.Path.Value); strings.HasPrefix(path, parsersImport) {
					t.Errorf("%s imports %s: a format package imports no agent package", f, path)
				}
			}
		}
	}
}

// oneCopy names the helpers that exist once, in analyzer/parser (and
// parsertest for byID): a parser or format package that defines a function
// of one of these names (any case) has brought a copy back.
var oneCopy = map[string]string{
	"compactjson": "parser.CompactJSON",
	"compact":     "parser.CompactJSON",
	"globescape":  "parser.GlobEscape",
	"byid":        "parsertest.ByID",
}

// TestOneCopyOfEachHelper fails when a parser or format package defines its
// own CompactJSON, GlobEscape or byID. A package's tests bind the one byID
// as `var byID = parsertest.IDs(Parsers())`; any other byID is a copy.
func TestOneCopyOfEachHelper(t *testing.T) {
	fset := token.NewFileSet()
	var bad []string
	for _, root := range []string{".", "../parser/format"} {
		for rel, files := range goFiles(t, root) {
			if root == "." && rel == "." {
				continue
			}
			for _, f := range files {
				af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range af.Decls {
					switch d := d.(type) {
					case *ast.FuncDecl:
						if use, dup := oneCopy[strings.ToLower(d.Name.Name)]; dup && d.Recv == nil {
							bad = append(bad, fset.Position(d.Pos()).String()+": func "+d.Name.Name+" copies "+use)
						}
					case *ast.GenDecl:
						for _, sp := range d.Specs {
							vs, ok := sp.(*ast.ValueSpec)
							if !ok {
								continue
							}
							for i, n := range vs.Names {
								use, dup := oneCopy[strings.ToLower(n.Name)]
								if !dup || (i < len(vs.Values) && isParsertestIDs(vs.Values[i])) {
									continue
								}
								bad = append(bad, fset.Position(n.Pos()).String()+": "+n.Name+" copies "+use)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// isParsertestIDs reports an expression parsertest.IDs(...).
func isParsertestIDs(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "parsertest" && sel.Sel.Name == "IDs"
}

package parsers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestBadJSONLineOneWording fails on a parser that words a bad JSON line
// itself: inside the function a parser hands parser.Lines (one call per
// line of a JSON Lines file), a problem row (Problem, Report) whose
// message is built with parser.JSONError says in its own words that the
// line did not decode, where parser.BadJSONLine is the one wording for
// that cause (analyzer/parser/wording.go). A line that decodes and is then
// found wanting (a field of another shape, a value stored as JSON text)
// is worded by what is wrong with it, without JSONError of the line.
func TestBadJSONLineOneWording(t *testing.T) {
	fset := token.NewFileSet()
	callbacks := 0
	for _, f := range parserSources(t) {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isSel(call.Fun, "parser", "Lines") || len(call.Args) == 0 {
				return true
			}
			fn, ok := call.Args[len(call.Args)-1].(*ast.FuncLit)
			if !ok {
				return true
			}
			callbacks++
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				pc, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				s, ok := pc.Fun.(*ast.SelectorExpr)
				if !ok || (s.Sel.Name != "Problem" && s.Sel.Name != "Report") {
					return true
				}
				for _, a := range pc.Args {
					ast.Inspect(a, func(n ast.Node) bool {
						c, ok := n.(*ast.CallExpr)
						if !ok {
							return true
						}
						if isSel(c.Fun, "parser", "JSONError") {
							t.Errorf("%s: a problem row worded with parser.JSONError in a parser.Lines callback: a line that does not decode is parser.BadJSONLine(err)", fset.Position(pc.Pos()))
						}
						// NotJSON*("") names the file itself: in a line's
						// callback, the line is what did not decode.
						for _, w := range []string{"NotJSON", "NotJSONObject", "NotJSONArray"} {
							if isSel(c.Fun, "parser", w) && len(c.Args) > 0 {
								if l, ok := c.Args[0].(*ast.BasicLit); ok && l.Value == `""` {
									t.Errorf("%s: parser.%s(\"\", ...) in a parser.Lines callback words a bad line as a bad file: use parser.BadJSONLine(err)", fset.Position(pc.Pos()), w)
								}
							}
						}
						return true
					})
				}
				return true
			})
			return true
		})
	}
	if callbacks < 50 {
		t.Fatalf("found %d parser.Lines callbacks; the scan is broken", callbacks)
	}
}

func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != name {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == pkg
}

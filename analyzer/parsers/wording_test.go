package parsers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ownJSONWording matches a string literal that words a bad JSON line,
// record, file or value itself instead of calling parser.BadJSONLine,
// NotJSON, NotJSONObject or NotJSONArray (analyzer/parser/wording.go):
// every wording the parsers had for those causes, and their near kin.
var ownJSONWording = regexp.MustCompile(`(?i:not an? JSON|invalid JSON|malformed JSON|bad JSON|unreadable JSON|not valid JSON|is not JSON|not JSON\b|truncated or (invalid|unreadable|glued) JSON|cut or glued JSON)|JSON line\b`)

// ownSharedWording matches a string literal that words a line SplitGlued
// split (a cut record with a whole one glued on, or records sharing a
// line) itself instead of calling parser.GluedProblem: the five wordings
// the parsers had ("cut record before a glued record: the cut part is
// lost", "...; kept the glued record", "a step cut short with the next
// step glued to it", "line cut short; a glued record after it was kept",
// "cut record with the next record glued on: the cut part is skipped")
// and their kin; and a SQLite table whose read failed part way, worded by
// parser.TableNotRead (opencode wrote "<query>: <error>").
var ownSharedWording = regexp.MustCompile(`(?i)\bglued\b|records on one line|not read to the end`)

// parserSources lists the non-test Go files of the agent packages and the
// shared format packages.
func parserSources(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{".", "../parser/format"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && filepath.Dir(p) != "." {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestOneWordingPerJSONCause fails when a parser writes its own wording for
// a bad JSON line or a file, record or value that is not JSON (or not the
// JSON object or array expected): those messages come from analyzer/parser
// (BadJSONLine, NotJSON, NotJSONObject, NotJSONArray), one wording per
// cause. Doc strings of the registry are not messages and are not read.
func TestOneWordingPerJSONCause(t *testing.T) {
	fset := token.NewFileSet()
	calls, glued, gluedKind := 0, 0, 0
	for _, f := range parserSources(t) {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Doc" {
					return false
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "parser" {
					switch n.Sel.Name {
					case "BadJSONLine", "NotJSON", "NotJSONObject", "NotJSONArray":
						calls++
					case "GluedProblem":
						glued++
					case "KindGlued":
						gluedKind++
					}
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(n.Value)
				if m := ownJSONWording.FindString(s); m != "" {
					t.Errorf("%s: %q words a bad JSON line or value itself (%q): use parser.BadJSONLine, NotJSON, NotJSONObject or NotJSONArray (analyzer/parser/wording.go)", fset.Position(n.Pos()), s, m)
				}
				if m := ownSharedWording.FindString(s); m != "" {
					t.Errorf("%s: %q words a glued line or a failed table read itself (%q): use parser.GluedProblem (analyzer/parser/lines.go) or parser.TableNotRead (sqlite.go)", fset.Position(n.Pos()), s, m)
				}
			}
			return true
		})
	}
	if calls < 100 {
		t.Fatalf("found %d calls of the shared wordings; the scan is broken", calls)
	}
	// Every parser that splits glued lines words them through GluedProblem:
	// 18 calls (claude-code history, the Claude transcript, claude-desktop,
	// codex's three JSON Lines readers, continue, copilot-cli, cursor,
	// the Gemini chat log, goose, letta, nanobot, the pi session, qwen's
	// chats and usage, vscode, windsurf).
	if glued != 18 {
		t.Errorf("found %d calls of parser.GluedProblem, want 18", glued)
	}
	// One cause, one kind: each is written as Report(n, parser.KindGlued,
	// ...), never a plain parse problem.
	if gluedKind != glued {
		t.Errorf("found %d uses of parser.KindGlued for %d calls of parser.GluedProblem: a glued line is kind glued_record", gluedKind, glued)
	}
}

// goTypeInMessage matches what a Go decoder's error puts into a message:
// Go type names and the decoders' package prefixes.
var goTypeInMessage = regexp.MustCompile(`Go value|Go struct field|of type |(?:^|\W)json: |jsontext: `)

// TestNoGoTypesInProblems reads every golden of the parsers and of the end
// to end fixtures: no problem message quotes a Go type or a decoder's
// prefix (parser.JSONError words a decoding error in plain words).
func TestNoGoTypesInProblems(t *testing.T) {
	var goldens []string
	for _, dir := range []string{".", "../parser/format", "../../fixtures/golden"} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.Contains(d.Name(), ".golden") || strings.HasPrefix(p, "../../fixtures/golden/") && strings.HasSuffix(p, ".jsonl") {
				goldens = append(goldens, p)
			}
			return nil
		})
	}
	if len(goldens) < 300 {
		t.Fatalf("found %d goldens; the scan is broken", len(goldens))
	}
	problems := 0
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, `"problem"`) && !strings.Contains(line, `"kind":"`) {
				continue
			}
			problems++
			if m := goTypeInMessage.FindString(line); m != "" {
				t.Errorf("%s:%d: a problem quotes %q (use parser.JSONError): %.200s", g, i+1, m, line)
			}
		}
	}
	if problems < 100 {
		t.Fatalf("found %d problem lines; the scan is broken", problems)
	}
}

// decodeCall and rawErrInProblem find a JSON decode followed, within four
// lines, by a problem row that quotes the decoder's error raw
// (err.Error()): its text can name Go types ("json: cannot unmarshal
// string into Go value of type main.record"); parser.JSONError says it in
// plain words.
var (
	decodeCall      = regexp.MustCompile(`json\.Unmarshal\(|\.Decode\(`)
	rawErrInProblem = regexp.MustCompile(`(Problem|Report)\(.*err\.Error\(\)`)
)

// TestJSONErrorsInPlainWords: no parser quotes a JSON decoder's error
// raw in a problem row.
func TestJSONErrorsInPlainWords(t *testing.T) {
	var bad []string
	for _, root := range []string{".", "../parser"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			lines := strings.Split(string(b), "\n")
			for i, l := range lines {
				if !decodeCall.MatchString(l) {
					continue
				}
				for j := i + 1; j < len(lines) && j <= i+4; j++ {
					if rawErrInProblem.MatchString(lines[j]) {
						bad = append(bad, p+":"+strconv.Itoa(j+1)+": "+strings.TrimSpace(lines[j]))
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(bad) > 0 {
		t.Errorf("problem rows quoting a JSON decoder's error raw (use parser.JSONError):\n%s", strings.Join(bad, "\n"))
	}
}

// ownStateWording matches a string literal that words a state database
// that cannot be opened, or a state row too large to load, itself: the
// wordings the parsers had ("no readable ItemTable", "state database not
// readable", "value of <key> is <n> bytes: over the bound, not read").
var ownStateWording = regexp.MustCompile(`(?i)readable ItemTable|database not readable|over the (\w+[- ])?bound`)

// TestOneWordingPerStateCause fails when a parser of the VS Code state
// database (a package importing parser/format/vscodestate) words one of
// its causes itself: a database OpenVSCodeState could not open is
// vscodestate.NotReadable; a row whose value cannot be read is the row's
// Unread (over the bound), NotJSON, NotObject or NotArray, each naming the
// table and key. So every error of a StateRow's JSON or Members must be
// reported through one of the row's methods, never parser.NotJSON* with
// a name of the parser's own, err.Error() or nothing at all.
func TestOneWordingPerStateCause(t *testing.T) {
	const pkg = "github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	fset := token.NewFileSet()
	byDir := map[string][]*ast.File{}
	users := map[string]bool{}
	for _, f := range parserSources(t) {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		d := filepath.Dir(f)
		byDir[d] = append(byDir[d], af)
		for _, im := range af.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == pkg {
				users[d] = true
			}
		}
	}
	if len(users) < 8 {
		t.Fatalf("found %d packages importing vscodestate; the scan is broken", len(users))
	}
	// decodes reports whether n calls a state row's JSON or Members.
	decodes := func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		s, ok := c.Fun.(*ast.SelectorExpr)
		return ok && (s.Sel.Name == "JSON" && len(c.Args) == 1 || s.Sel.Name == "Members" && len(c.Args) == 0)
	}
	// worded reports whether body words the error through a row method.
	worded := func(body ast.Node) bool {
		found := false
		ast.Inspect(body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if s, ok := c.Fun.(*ast.SelectorExpr); ok {
					if x, ok := s.X.(*ast.Ident); !ok || x.Name != "parser" {
						switch s.Sel.Name {
						case "NotJSON", "NotObject", "NotArray", "Unread":
							found = true
						}
					}
				}
			}
			return !found
		})
		return found
	}
	// errNotNil reports whether cond is "err != nil".
	errNotNil := func(cond ast.Expr) bool {
		b, ok := cond.(*ast.BinaryExpr)
		if !ok || b.Op != token.NEQ {
			return false
		}
		x, ok := b.X.(*ast.Ident)
		y, ok2 := b.Y.(*ast.Ident)
		return ok && ok2 && x.Name == "err" && y.Name == "nil"
	}
	checked := 0
	for d := range users {
		if filepath.Base(d) == "vscodestate" {
			continue // the package defines the wordings
		}
		for _, af := range byDir[d] {
			ast.Inspect(af, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if n.Kind == token.STRING {
						s, _ := strconv.Unquote(n.Value)
						if m := ownStateWording.FindString(s); m != "" {
							t.Errorf("%s: %q words a state database cause itself (%q): use vscodestate.NotReadable or the row's Unread", fset.Position(n.Pos()), s, m)
						}
					}
				case *ast.BlockStmt:
					for i, st := range n.List {
						var call ast.Node
						var ifs *ast.IfStmt
						switch st := st.(type) {
						case *ast.IfStmt:
							// if err := r.JSON(&v); err != nil {..}
							if a, ok := st.Init.(*ast.AssignStmt); ok && len(a.Rhs) == 1 && decodes(a.Rhs[0]) {
								call, ifs = a.Rhs[0], st
							}
						case *ast.AssignStmt:
							// v, err := r.Members(); if err != nil {..}
							if len(st.Rhs) == 1 && decodes(st.Rhs[0]) && i+1 < len(n.List) {
								if next, ok := n.List[i+1].(*ast.IfStmt); ok && next.Init == nil {
									call, ifs = st.Rhs[0], next
								}
							}
						}
						if call == nil || !errNotNil(ifs.Cond) {
							continue
						}
						checked++
						if !worded(ifs.Body) {
							t.Errorf("%s: the error of a state row's value is not worded by the row (its NotJSON, NotObject, NotArray or Unread)", fset.Position(call.Pos()))
						}
					}
				}
				return true
			})
		}
	}
	// tabby, twinny, trae, roo-code, pearai, cody: 6; cursor: 8
	if checked != 14 {
		t.Errorf("checked %d state row decodes, want 14: a decode was added or removed (update the count) or the scan is broken", checked)
	}
}

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

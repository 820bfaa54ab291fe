package parsers_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// copyLeft is a parser that still drops a copy itself, with the reason it
// counts and how many string literals give it: each is a known exception,
// to move to the correlate stage (issue 25 item 2), never to grow.
//   - codexhome's rollout reader: a rollout records one user prompt, reply
//     or reasoning twice, as an event_msg and as a response_item (and an
//     item_completed), and reads the shape of record the file holds in
//     full; the others are counted "duplicate:user_message" /
//     "duplicate:response_item". The two shapes carry no shared id.
//   - codexhome's thread history: a turn or item whose id the thread's
//     collected rollout holds (another file) is counted
//     "duplicate:rollout"; its row would be another shape of the rollout's
//     record (a commandExecution item for an exec_command call).
var copyLeft = map[string]int{
	"codexhome/parse_rollout.go duplicate:response_item":  5,
	"codexhome/parse_rollout.go duplicate:user_message":   1,
	"codexhome/parse_thread_history.go duplicate:rollout": 2,
}

// TestParsersDropNoCopies (issue 25 item 2) fails when a parser package
// skips a record as a "duplicate" of another: parsers emit every record
// they read as a row with the agent's own identity, and the correlate
// stage (analyzer/engine/correlate) is the one place rows are merged, so a
// repeat is counted in the summary's repeats line and a conflicting copy
// is a duplicate_id problem. Every string literal of a parser source that
// is a skip reason "duplicate" or "duplicate:<what>" counts, whether it is
// passed to Skip or kept in a variable first.
func TestParsersDropNoCopies(t *testing.T) {
	fset := token.NewFileSet()
	found := map[string]int{}
	var where []string
	skips := 0
	for _, f := range parserSources(t) {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if s, ok := n.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Skip" {
					skips++
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(n.Value)
				if s == "duplicate" || strings.HasPrefix(s, "duplicate:") {
					k := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f) + " " + s
					found[k]++
					where = append(where, fmt.Sprintf("%s: %q", fset.Position(n.Pos()), s))
				}
			}
			return true
		})
	}
	if skips < 250 {
		t.Fatalf("found %d Skip calls; the scan is broken", skips)
	}
	var bad []string
	for k, n := range found {
		if n > copyLeft[k] {
			bad = append(bad, fmt.Sprintf("%s (%d, %d known)", k, n, copyLeft[k]))
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("a parser drops a copy itself: %s\nat:\n%s\nemit the copy as a row with the record's identity (RecordID) and let the correlate stage merge it", strings.Join(bad, "; "), strings.Join(where, "\n"))
	}
	for k, n := range copyLeft {
		if found[k] < n {
			t.Errorf("%s: %d left, %d listed in copyLeft: lower the list", k, found[k], n)
		}
	}
}

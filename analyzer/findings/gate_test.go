package findings

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var gates = []struct {
	name string
	re   *regexp.Regexp
	gate regexpGate
}{{"prohibition", prohibitionRe, prohibitionGate}, {"scanner", scannerRe, scannerGate}}

// gateTexts are the rows' texts of the fixture roots' expected timelines
// and sample texts that each regexp matches or nearly matches.
func gateTexts(t testing.TB) []string {
	texts := []string{"do NOT delete anything", "Don't remove the logs", "NEVER DROP the table", "nothing should be deleted", "no force-push",
		"MUSTN'T wipe it", "you shouldn't reset", "No files may be removed", "You must not rm it", "shall not   purge", "should not overwrite x",
		"never push --force", "DO NOT TRUNCATE", "no-one deletes", "Run NMAP -sV host", "sudo masscan -p1-65535", "x;sqlmap -u y", "(nuclei)",
		"ENUM4LINUX host", "Don’t delete", "do not ſkip: dele\u017fe", "run nmap", "nmapx", "mynmap", "a Kelvin \u212aill", strings.Repeat("no delete ", 200),
		strings.Repeat("x", 2000) + " never erase"}
	files, _ := filepath.Glob("../../fixtures/roots/*.expect.json")
	_ = filepath.WalkDir("../../fixtures/roots", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 60 {
		t.Fatalf("%d fixture files: the fixtures moved?", len(files))
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			texts = append(texts, sc.Text())
		}
		fh.Close()
	}
	return texts
}

// TestGates: a gate never turns away a text its regexp matches, and turns
// away some that it does not (it is a gate).
func TestGates(t *testing.T) {
	texts := gateTexts(t)
	for _, g := range gates {
		matched, away := 0, 0
		for _, s := range texts {
			m := g.re.MatchString(s)
			if m {
				matched++
			}
			if !g.gate.mayMatch(s) {
				away++
				if m {
					t.Errorf("%s gate turns away %.80q, which its regexp matches", g.name, s)
				}
			}
		}
		t.Logf("%s: %d texts, %d matched, %d turned away by the gate", g.name, len(texts), matched, away)
		if matched < 5 || away < 5 {
			t.Errorf("%s: %d matched, %d turned away: the test tests too little", g.name, matched, away)
		}
	}
	if n := testing.AllocsPerRun(100, func() { prohibitionGate.mayMatch("Run the shell command `echo x` and tell me what it printed.") }); n != 0 {
		t.Errorf("mayMatch: %v allocations, want 0", n)
	}
}

// FuzzGates: on any text, a gate passes whatever its regexp matches.
func FuzzGates(f *testing.F) {
	for _, s := range []string{"do not delete", "nmap", "NEVER wipe", "x\u017f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range gates {
			if g.re.MatchString(s) && !g.gate.mayMatch(s) {
				t.Fatalf("%s gate turns away %q, which its regexp matches", g.name, s)
			}
		}
	})
}

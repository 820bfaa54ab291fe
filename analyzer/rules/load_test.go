//go:build unix

package rules

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const goodRule = "title: t\nid: 00000000-0000-4000-8000-00000000000%d\nlevel: low\nlogsource:\n  product: doubleagent\ndetection:\n  s:\n    text: x\n  condition: s\n"

func rule(i int) []byte { return []byte(strings.Replace(goodRule, "%d", string(rune('0'+i)), 1)) }

// TestLoadByTheEvidenceRule: the examiner's rule files are read as
// evidence is. A FIFO (named, or in a folder) is refused at once and never
// opened, so the run cannot hang; a link (named or in a folder) is refused
// and never followed, never skipped in silence; what is loaded is counted
// per path; files that are not .yml/.yaml in a folder are not rules.
func TestLoadByTheEvidenceRule(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.Mkdir(good, 0o755)
	os.WriteFile(filepath.Join(good, "a.yml"), rule(1), 0o644)
	os.WriteFile(filepath.Join(good, "b.yaml"), rule(2), 0o644)
	os.WriteFile(filepath.Join(good, "README.md"), []byte("not a rule"), 0o644)
	one := filepath.Join(dir, "one.yml")
	os.WriteFile(one, rule(3), 0o644)
	rs, loaded, err := Load([]string{good, one})
	if err != nil || len(rs) != 3 || len(loaded) != 2 || loaded[0] != (Loaded{good, 2}) || loaded[1] != (Loaded{one, 1}) {
		t.Fatalf("%d rules, loaded %+v, %v", len(rs), loaded, err)
	}

	fifo := filepath.Join(dir, "x.yml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	withLink := filepath.Join(dir, "withlink")
	os.Mkdir(withLink, 0o755)
	os.WriteFile(filepath.Join(withLink, "a.yml"), rule(4), 0o644)
	os.Symlink(one, filepath.Join(withLink, "link.yml"))
	withFIFO := filepath.Join(dir, "withfifo")
	os.Mkdir(withFIFO, 0o755)
	syscall.Mkfifo(filepath.Join(withFIFO, "p.yml"), 0o600)
	namedLink := filepath.Join(dir, "named-link.yml")
	os.Symlink(one, namedLink)
	big := filepath.Join(dir, "big.yml")
	os.WriteFile(big, make([]byte, MaxRuleFileSize+1), 0o644)
	cases := map[string]string{
		fifo:      fifo + ": a FIFO, not a regular file or a folder: refused, never opened",
		namedLink: namedLink + ": a symbolic link, not a regular file or a folder: refused, never opened",
		withLink:  filepath.Join(withLink, "link.yml") + ": a symbolic link, not a regular file: refused, never opened",
		withFIFO:  filepath.Join(withFIFO, "p.yml") + ": a FIFO, not a regular file: refused, never opened",
		big:       big + ": over 4194304 bytes, not a rule file: refused",
	}
	for p, want := range cases {
		done := make(chan error, 1)
		go func() { _, _, err := Load([]string{p}); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", p, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load hangs", p)
		}
	}
}

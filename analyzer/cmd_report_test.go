package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportCaseAndHashes: `report --case --examiner` over a loose home
// names the case and examiner in both reports (a loose input records
// none), lists the control surface (written beside it) with who wrote
// each entry, and run.json hashes report.html, report.md and surface.*.
func TestReportCaseAndHashes(t *testing.T) {
	home := filepath.Join(t.TempDir(), "alice")
	writeFile(t, filepath.Join(home, ".claude/settings.json"), plantedSettings)
	out := filepath.Join(t.TempDir(), "out")
	if stdout, code := runCLI(t, "report", home, "-o", out, "--case", "IR-2026-042", "--examiner", "J. Doe"); code != 0 {
		t.Fatalf("exit %d: %s", code, stdout)
	}
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{"<tr><th>case</th><td>IR-2026-042 (given by --case)</td></tr><tr><th>examiner</th><td>J. Doe (given by --examiner)</td></tr>"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	for _, want := range []string{"| case | IR-2026-042 (given by --case) |\n| examiner | J. Doe (given by --examiner) |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	var rec struct {
		Outputs []struct{ File, SHA256 string }
	}
	b, _ := os.ReadFile(filepath.Join(out, "run.json"))
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range rec.Outputs {
		got[o.File] = o.SHA256
	}
	// the control surface is written too, and the report lists its
	// changes: the planted Stop hook no agent turn wrote
	if !strings.Contains(string(md), "[Control surface changes](#surface-changes)") || !strings.Contains(string(md), "| hook | user | Stop | curl -fsS -d") ||
		!strings.Contains(string(md), "(#r1) | no agent turn wrote this |") {
		t.Errorf("report.md lacks the control surface section:\n%s", md)
	}
	for _, f := range []string{"report.html", "report.md", "surface.jsonl", "surface.md"} {
		if got[f] != sha(t, filepath.Join(out, f)) {
			t.Errorf("run.json: %s sha256 %q, want the file's", f, got[f])
		}
	}
}

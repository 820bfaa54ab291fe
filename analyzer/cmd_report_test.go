package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/mdsafe"
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

// TestReportOfNothingUsable: `report` over an input that is not a bundle
// exits 2 and still writes report.html and report.md, which say that
// nothing usable was read, why, and list the problem row; run.json
// hashes them.
func TestReportOfNothingUsable(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.tar.zst")
	writeFile(t, bad, "garbage\n")
	out := filepath.Join(t.TempDir(), "out")
	stdout, code := runCLI(t, "report", bad, "-o", out)
	if code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, stdout)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	const why = "does not start with a zstd frame (first bytes 67 61 72 62, where a bundle starts 28 b5 2f fd): damaged, or not a bundle"
	for _, want := range []string{
		"**Nothing usable: none of the 1 input(s) given could be read, so this report holds no rows. Why, for each (run.json's inputs\\_given; the problems are listed under Problems):**\n\n- " + mdEscPath(bad) + ": unusable: " + why + "\n\nContents:",
		"| # | kind | input | file | line | parser | message |\n|---|---|---|---|---|---|---|\n| 1 | unusable\\_input | " + mdEscPath(bad) + " | \\- | \\- | \\- | " + why + " |\n\n## ",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if want := "<li><code>" + bad + ": unusable: " + why + "</code></li>"; !strings.Contains(string(html), want) {
		t.Errorf("report.html lacks %q", want)
	}
	if !strings.Contains(stdout, "report: "+filepath.Join(out, "report.html")+"\n") {
		t.Errorf("stdout does not name report.html:\n%s", stdout)
	}
	// The surface files under their own label, never as "report:".
	if want := "surface: " + filepath.Join(out, "surface.jsonl") + "\nsurface: " + filepath.Join(out, "surface.md") + "\nreport: "; !strings.Contains(stdout, want) || strings.Contains(stdout, "report: "+filepath.Join(out, "surface")) {
		t.Errorf("stdout does not label the surface files surface:\n%s", stdout)
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
	for _, f := range []string{"report.html", "report.md"} {
		if got[f] != sha(t, filepath.Join(out, f)) {
			t.Errorf("run.json: %s sha256 %q, want the file's", f, got[f])
		}
	}
}

// mdEscPath is a temporary path as report.md writes it (its '_' and '-'
// are not special mid-word, but a path's may be: escape as mdsafe does).
func mdEscPath(p string) string { return mdsafe.Text(p) }

// TestReportOfNothingFound: a folder read but holding no agent record
// gives a report that says so at the top (exit 1), not an empty page.
func TestReportOfNothingFound(t *testing.T) {
	in := t.TempDir()
	writeFile(t, filepath.Join(in, "home", "u", "notes.txt"), "nothing of an agent\n")
	out := filepath.Join(t.TempDir(), "out")
	stdout, code := runCLI(t, "report", in, "-o", out)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stdout)
	}
	const note = "Nothing found: the 1 input(s) read hold no agent record, so this report holds no rows. What each input held is under Evidence and integrity and Hosts, users, agents (inventory.json); the problems, if any, are listed under Problems."
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "**" + note + "**\n\nContents:"; !strings.Contains(string(md), want) {
		t.Errorf("report.md lacks %q:\n%s", want, md)
	}
	if want := "<p class=\"bad\"><b>" + note + "</b></p>"; !strings.Contains(string(html), want) {
		t.Errorf("report.html lacks %q", want)
	}
}

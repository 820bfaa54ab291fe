package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/findings"
	"github.com/doubleagent/doubleagent/analyzer/report"
	"github.com/doubleagent/doubleagent/analyzer/report/reporttest"
	"github.com/doubleagent/doubleagent/analyzer/surface"
)

// hostileFindings are findings whose every field is hostile.
func hostileFindings(beacon string) []report.Finding {
	h := reporttest.Hostile(beacon)
	var fs []report.Finding
	for i, s := range h {
		fs = append(fs, report.Finding{RuleID: s, Title: h[(i+1)%len(h)], Source: h[(i+2)%len(h)], Level: h[(i+3)%len(h)], Class: h[(i+4)%len(h)],
			Host: s, User: h[(i+1)%len(h)], Agent: h[(i+2)%len(h)], SessionID: h[(i+3)%len(h)], Time: s, Last: s, Rows: 1,
			Matched: []report.FindingRow{{Line: int64(i + 1), Time: s, TurnType: s, Text: s}}})
		if i%3 == 0 {
			// the "Secrets seen" section shows these
			fs[i].Class = "secret-exposure"
			fs[i].Secret = &findings.SecretExposure{Fingerprint: s, Kind: h[(i+1)%len(h)], Hosts: []string{s}, Users: []string{h[(i+2)%len(h)]},
				Agents: []string{h[(i+3)%len(h)]}, Sessions: []string{h[(i+4)%len(h)]}, SentTo: []string{h[(i+5)%len(h)]}}
		}
	}
	return fs
}

// hostileSurface is control-surface entries whose every field is hostile,
// half written by a hostile agent turn.
func hostileSurface(beacon string) []surface.Entry {
	h := reporttest.Hostile(beacon)
	var es []surface.Entry
	for i, s := range h {
		e := surface.Entry{Host: s, User: h[(i+1)%len(h)], TimelineLine: int64(i + 1), FirstSeen: s, LastSeen: h[(i+2)%len(h)], Provenance: surface.NoAgentTurn}
		e.Kind, e.Agent, e.Scope, e.Name, e.Event, e.Matcher, e.Command, e.File, e.MTime = h[(i+3)%len(h)], h[(i+4)%len(h)], h[(i+5)%len(h)], h[(i+6)%len(h)],
			h[(i+7)%len(h)], h[(i+8)%len(h)], h[(i+9)%len(h)], h[(i+10)%len(h)], h[(i+11)%len(h)]
		if i%2 == 0 {
			e.Kind = "hook"
			e.Provenance = surface.AgentTurn
			e.WrittenBy = []surface.Writer{{Agent: h[(i+12)%len(h)], SessionID: h[(i+13)%len(h)], TimelineLine: int64(i + 2), TimestampUTC: h[(i+14)%len(h)],
				Action: h[(i+15)%len(h)], Text: h[(i+16)%len(h)]}}
		}
		es = append(es, e)
	}
	return es
}

// TestMarkdownKeepsEvidenceInert: report.md of a folder whose every field
// is hostile, rendered by goldmark (GFM, raw HTML kept), has no raw HTML
// but its own anchors, no link out, image or autolink, and no line that
// evidence started; every hostile string is still there, escaped.
func TestMarkdownKeepsEvidenceInert(t *testing.T) {
	dir := t.TempDir()
	const beacon = "http://127.0.0.1:9/beacon.png"
	if err := reporttest.WriteFolder(dir, beacon); err != nil {
		t.Fatal(err)
	}
	files, err := report.Write(report.Options{Dir: dir, Findings: hostileFindings(beacon), Surface: hostileSurface(beacon), Case: "<img src=x onerror=alert(1)>\n# case", Examiner: "[x](" + beacon + ")"})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range reporttest.Check(md) {
		t.Error(b)
	}
	page, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range reporttest.RawControls(page) {
		if !strings.Contains(b, "U+000D") { // a CR is a line ending to a browser, shown as one
			t.Errorf("report.html: %s", b)
		}
	}
	for _, sec := range []string{"Secrets seen", "Control surface changes"} {
		if n := strings.Count(section(string(md), sec), "\n| "); n < 10 {
			t.Errorf("report.md: section %q has %d table lines, want the hostile entries", sec, n)
		}
	}
	for _, want := range []string{"\u241b]0;forged title\u2407\u241b[2J", "bidi <U+202E>forged override<U+202C>", "C1 <U+009B>31m CSI"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md does not show %q", want)
		}
	}
	if !strings.Contains(string(page), "bidi &lt;U+202E&gt;forged override&lt;U+202C&gt;") {
		t.Errorf("report.html does not show the bidi override as <U+202E>")
	}
	out, _ := reporttest.Render(md)
	if !strings.Contains(string(out), "&lt;img src=&quot;"+beacon+"&quot;&gt;") {
		t.Errorf("the hostile text is not shown escaped")
	}
	if err := os.WriteFile(filepath.Join(t.TempDir(), "x.html"), out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckCatchesLiveMarkdown: the check fails what it must (so the
// test above can fail).
func TestCheckCatchesLiveMarkdown(t *testing.T) {
	for _, md := range []string{"<img src=x>\n", "a <b>x</b>\n", "[a](http://x)\n", "![a](x.png)\n", "see http://x.org\n", "x\n> q forged\n",
		"# forged\n", "- forged\n", "x\n\n    code\n", "*em*\n", "~~del~~\n", "`code`\n", "<div>\nx\n</div>\n", "a\n\n---\n",
		"a\x1b[2Jb\n", "```\n\x1b]0;t\x07\n```\n", "a\u202eb\n", "a\u009bb\n", "a\U000E0041b\n", "a\u200bb\n"} {
		if len(reporttest.Check([]byte(md))) == 0 {
			t.Errorf("%q passes the check", md)
		}
	}
	if b := reporttest.Check([]byte("# DoubleAgent\n\n<a id=\"s-1\"></a>**typed** x \\<img\\> [l](#s-1)\n")); len(b) != 0 {
		t.Errorf("the report's own markup fails: %v", b)
	}
}

// TestReportRefusesPlantedFiles: a file or a link already in the folder
// under a report's name is refused, never truncated or written through.
func TestReportRefusesPlantedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := reporttest.WriteFolder(dir, "http://127.0.0.1:9/x"); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, report.HTMLName)); err != nil {
		t.Fatal(err)
	}
	if _, err := report.Write(report.Options{Dir: dir}); err == nil {
		t.Fatal("a link planted as report.html was accepted")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("written through the link: %q", b)
	}
}

package report_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers/opencode"
	"github.com/doubleagent/doubleagent/analyzer/report"
)

// TestSizeBudget: past report.html's size budget a session no finding
// names is not written: the session index lists it (its row is the
// session's anchor, so the overview's bar still lands on it) with its
// rows, their timeline.jsonl lines and the --session command; a session
// a finding names is written whatever the budget, and whole within the
// row budget; the Sessions heading says how many are left out. With the
// default budget both sessions of the fixture are written.
func TestSizeBudget(t *testing.T) {
	root, _ := filepath.Abs("../../fixtures/roots/opencode-deleted/home/examiner3")
	out := filepath.Join(t.TempDir(), "out")
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{root}, OutDir: out, Parsers: opencode.Parsers(), Jobs: 1, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	const kept, left = "ses_dccb67667ffedFiHCx5a9BYKVb", "ses_dccb6215bffempodh0GeJHTBdp"
	const keptID, leftID = "s-loose_3a_examiner3-examiner3-opencode-ses_5f_dccb67667ffedFiHCx5a9BYKVb", "s-loose_3a_examiner3-examiner3-opencode-ses_5f_dccb6215bffempodh0GeJHTBdp"
	write := func(bytes int64, fs []report.Finding) (string, string) {
		_ = os.Remove(filepath.Join(out, "report.html"))
		_ = os.Remove(filepath.Join(out, "report.md"))
		files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir(), Bytes: bytes, Findings: fs})
		if err != nil {
			t.Fatal(err)
		}
		h, _ := os.ReadFile(files[0])
		m, _ := os.ReadFile(files[1])
		return string(h), string(m)
	}
	page, md := write(0, nil)
	if strings.Contains(md, "not shown (size budget)") || strings.Count(page, "<section id=") != 3 {
		t.Fatalf("the default budget leaves a session out")
	}
	// line 5 is a row of the kept session (its rows are lines 1 to 23)
	fs := []report.Finding{{RuleID: "r1", Title: "t", Level: "high", Class: "c", Host: "loose:examiner3", User: "examiner3", Agent: "opencode", SessionID: kept, Rows: 1,
		Matched: []report.FindingRow{{Line: 5, TurnType: "user", Text: "x"}}}}
	page, md = write(1, fs)
	defer func() {
		// a report of one session is never cut, whatever the budget
		one := filepath.Join(t.TempDir(), "one")
		if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{root}, OutDir: one, Parsers: opencode.Parsers(), Jobs: 1, TempDir: t.TempDir(), Sessions: []string{left}}); err != nil {
			t.Fatal(err)
		}
		files, err := report.Write(report.Options{Dir: one, TempDir: t.TempDir(), Bytes: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(files[1])
		if strings.Contains(string(b), "not shown") || !strings.Contains(string(b), "### <a id=\""+leftID+"\"></a>session") {
			t.Errorf("a report of one session is cut:\n%s", section(string(b), "Sessions"))
		}
	}()
	wantIdx := "| <a id=\"" + leftID + "\"></a>opencode | ses\\_dccb6215bffempodh0GeJHTBdp (not shown: 10 row(s), timeline.jsonl lines 24-33) |"
	if !strings.Contains(md, wantIdx) {
		t.Errorf("the index does not list the session left out:\n%s", section(md, "Session index"))
	}
	if !strings.Contains(section(md, "Session index"), "\n1 session(s) marked not shown are left out of the conversations below by the size budget (report.html stays near 10 MB): their rows are at the timeline.jsonl lines given, and doubleagent report with --session ID writes one whole.\n") {
		t.Errorf("the index does not say what not shown means:\n%s", section(md, "Session index"))
	}
	if !strings.Contains(md, "*1 session(s) are not shown here, so that report.html stays near 10 MB:") {
		t.Errorf("the Sessions heading does not say a session is left out")
	}
	if strings.Count(page, `<section id="`+keptID+`">`) != 1 || strings.Contains(page, `<section id="`+leftID+`">`) || strings.Count(page, `id="`+leftID+`"`) != 1 {
		t.Errorf("report.html: the kept session is not written once, or the left-out one is written or anchored other than once")
	}
	if !strings.Contains(page, `<a href="#`+leftID+`"><rect`) {
		t.Errorf("the overview has no bar for the left-out session")
	}
	// the session a finding names is written, but past the budget only
	// the row it names, with a note naming the rest; the rows without a
	// session are written too
	body := section(md, "Sessions")
	note := "*21 more row(s) not shown (size budget; timeline.jsonl lines 2-23): report --session ses\\_dccb67667ffedFiHCx5a9BYKVb writes them.*"
	once := "*Past the size budget, 1 session(s) a finding or a control-surface entry names show only the rows they name; each says at its end how many more rows it has, at which timeline.jsonl lines, and the command that writes it whole.*"
	if !strings.Contains(body, note) || !strings.Contains(body, once) || strings.Count(body, "· in a finding ·") != 1 || !strings.Contains(body, "rows without a session") || !strings.Contains(page, `id="r5"`) {
		t.Errorf("the Sessions section:\n%s", body)
	}
}

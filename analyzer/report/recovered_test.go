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

// section returns the text of a report.md section, heading to the next.
func section(md, heading string) string {
	i := strings.Index(md, "\n## ")
	for i >= 0 {
		rest := md[i+1:]
		if strings.Contains(strings.SplitN(rest, "\n", 2)[0], heading) {
			if j := strings.Index(rest[3:], "\n## "); j >= 0 {
				return rest[:j+3]
			}
			return rest
		}
		k := strings.Index(rest[3:], "\n## ")
		if k < 0 {
			return ""
		}
		i += 1 + 3 + k
	}
	return ""
}

// TestDeletedAndRecovered: the real opencode 1.18.33 store of
// fixtures/roots/opencode-deleted, one session removed by `opencode
// session delete`: the report's "Deleted and recovered" section lists it
// (recovered yes, its rows and recovered rows, first prompt, the
// freeblocks its records came from); with --no-carve the same session is
// a trace named by opencode's log. The kept session is not listed, and
// each recovered row in the conversation says where it was found.
func TestDeletedAndRecovered(t *testing.T) {
	root, _ := filepath.Abs("../../fixtures/roots/opencode-deleted/home/examiner3")
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
	md := func(noCarve bool) string {
		out := filepath.Join(t.TempDir(), "out")
		if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{root}, OutDir: out, Parsers: opencode.Parsers(), Jobs: 1, TempDir: t.TempDir(), NoCarve: noCarve}); err != nil {
			t.Fatal(err)
		}
		files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(files[1])
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const link = "[ses\\_dccb67667ffedFiHCx5a9BYKVb](#s-loose_3a_examiner3-examiner3-opencode-ses_5f_dccb67667ffedFiHCx5a9BYKVb) examiner3@loose:examiner3"
	m := md(false)
	sec := section(m, "Deleted and recovered")
	want := "| opencode | " + link + " | yes | 2026-12-01T20:26:27.096Z → 2026-12-01T20:26:38.192Z | /home/examiner3/demo | 22 (22) | " +
		"\"Run the shell command \\`echo doubleagent-carve-deleted-marker\\` and tell me what it printed.\" | " +
		"freeblock on page 35: 5 row(s); freeblock on page 25: 4 row(s); freeblock on page 70: 13 row(s) |\n"
	if !strings.Contains(sec, "\n1 session(s) deleted") || !strings.HasSuffix(sec, want) || strings.Contains(sec, "ses\\_dccb6215bffempodh0GeJHTBdp") {
		t.Errorf("section:\n%s", sec)
	}
	if !strings.Contains(m, "Contents: [Case overview](#overview), [Session index](#session-index), [Deleted and recovered](#recovered),") {
		t.Errorf("contents do not list the section")
	}
	if !strings.Contains(m, "**typed** 2026-12-01T20:26:29.675Z · recovered yes: freeblock on page 70 at offset 3864 · [") {
		t.Errorf("the recovered prompt does not say where it was found")
	}
	off := md(true)
	sec = section(off, "Deleted and recovered")
	want = "| opencode | " + link + " | trace | 2026-12-01T20:26:27.096Z → 2026-12-01T20:26:36.688Z | /home/examiner3/demo | 2 (0) | \\- | named by " +
		root + "/.local/share/opencode/log/opencode.log |\n"
	if !strings.HasSuffix(sec, want) || strings.Contains(off, "recovered yes:") {
		t.Errorf("--no-carve section:\n%s", sec)
	}
}

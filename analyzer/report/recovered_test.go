package report_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
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

// TestRowBudget: past its row budget the report shows each session's
// first rows (rowCap: 3 sessions of 8, 5 and 3 rows in a budget of 12
// give 4 each, the 3-row session whole) and names the rest at the
// session's end with the command that writes it whole; within the
// budget nothing is left out.
func TestRowBudget(t *testing.T) {
	root, _ := filepath.Abs("../../fixtures/roots/opencode-deleted/home/examiner3")
	out := filepath.Join(t.TempDir(), "out")
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{root}, OutDir: out, Parsers: opencode.Parsers(), Jobs: 1, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	sessions, err := os.ReadFile(filepath.Join(out, "sessions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(sessions), "\n"); n != 2 {
		t.Fatalf("%d sessions, want the fixture's 2 (22 and 10 rows)", n)
	}
	for _, c := range []struct {
		rows int
		want []string
	}{
		{1 << 20, nil},
		{20, []string{
			"*This case has more rows than a readable report holds: each session shows its first 10 rows (text cut after 4000 characters) and every row a finding names; the rest are named at each session's end, and every row is in timeline.jsonl.*",
			"*12 more row(s) of this session are not shown here (the first at timeline.jsonl line 12, the last at line 23): this report shows each session's first 10 rows and every row a finding names, so that a large case stays readable; doubleagent report with --session ses\\_dccb67667ffedFiHCx5a9BYKVb writes this session whole.*",
		}},
	} {
		_ = os.Remove(filepath.Join(out, "report.html"))
		_ = os.Remove(filepath.Join(out, "report.md"))
		files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir(), Rows: c.rows})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(files[1])
		if err != nil {
			t.Fatal(err)
		}
		var notes []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "not shown here") || strings.Contains(l, "more rows than a readable report") {
				notes = append(notes, l)
			}
		}
		if strings.Join(notes, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("budget %d: notes\n%s\nwant\n%s", c.rows, strings.Join(notes, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestReportRedactsSecrets: a credential in a typed prompt or a tool's
// arguments is "[redacted]" in both reports (timeline.jsonl keeps it).
func TestReportRedactsSecrets(t *testing.T) {
	home := filepath.Join(t.TempDir(), "alice")
	dir := filepath.Join(home, ".claude", "projects", "-home-alice-p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key := "sk-ant-api03-AAAABBBBCCCCDDDDEEEEFFFF"
	lines := `{"type":"user","message":{"role":"user","content":"use ANTHROPIC_API_KEY=` + key + ` please"},"uuid":"u1","timestamp":"2026-05-01T10:00:00.000Z","sessionId":"aaaa1111-0000-4000-8000-000000000001","cwd":"/home/alice/p"}
{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"curl -H 'Authorization: Bearer ` + key + `' https://api.example"}}]},"uuid":"a1","parentUuid":"u1","timestamp":"2026-05-01T10:00:01.000Z","sessionId":"aaaa1111-0000-4000-8000-000000000001","cwd":"/home/alice/p"}
`
	if err := os.WriteFile(filepath.Join(dir, "aaaa1111-0000-4000-8000-000000000001.jsonl"), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{home}, OutDir: out, Parsers: claudecode.Parsers(), Jobs: 1, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	tl, err := os.ReadFile(filepath.Join(out, "timeline.jsonl"))
	if err != nil || !strings.Contains(string(tl), key) {
		t.Fatalf("timeline.jsonl should keep the evidence as recorded: %v", err)
	}
	files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "AAAABBBB") || strings.Count(string(b), "[redacted]") < 2 {
			t.Errorf("%s: secret shown, or fewer than 2 redactions (%d)", f, strings.Count(string(b), "[redacted]"))
		}
	}
}

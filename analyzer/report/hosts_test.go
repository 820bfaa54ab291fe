package report_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/analyzer/report"
	"github.com/doubleagent/doubleagent/bundle"
)

// sameIDBundle writes a bundle of host holding one Claude Code session
// of alice with the session id sid: a typed prompt saying what.
func sameIDBundle(t *testing.T, dir, host, bundleID, sid, at, what string) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: bundleID, CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: host}})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(`{"type":"user","sessionId":"` + sid + `","cwd":"/home/alice/proj","uuid":"u1","timestamp":"` + at + `","message":{"role":"user","content":"` + what + `"}}` + "\n")
	if _, err := w.AddFile(bundle.Entry{Path: "/home/alice/.claude/projects/-home-alice-proj/" + sid + ".jsonl", Agent: "claude-code", Target: "projects", Kind: "transcript",
		User: "alice", Home: "/home/alice", Type: "file", MTime: "2026-12-01T00:00:00.000Z"}, int64(len(data)), bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-12-01T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, host+".tar.zst")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSameSessionIDOnTwoHosts: two hosts' bundles carrying the same
// session id (one user name, one agent) are two sessions in the report:
// two index entries, two bars in the overview, two headings in the body,
// each holding only its own host's prompt.
func TestSameSessionIDOnTwoHosts(t *testing.T) {
	const sid = "0f0e0d0c-0b0a-4900-8800-aabbccddeeff"
	dir := t.TempDir()
	a := sameIDBundle(t, dir, "host-a", "01930000-0000-7000-8000-00000000aa01", sid, "2026-12-01T10:00:00.000Z", "prompt on host a")
	b := sameIDBundle(t, dir, "host-b", "01930000-0000-7000-8000-00000000bb01", sid, "2026-12-01T11:00:00.000Z", "prompt on host b")
	out := filepath.Join(t.TempDir(), "out")
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{a, b}, OutDir: out, Parsers: claudecode.Parsers(), Jobs: 1, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	mdb, _ := os.ReadFile(files[1])
	htmlb, _ := os.ReadFile(files[0])
	md, page := string(mdb), string(htmlb)
	const idA, idB = "s-host_2d_a-alice-claude_2d_code-0f0e0d0c_2d_0b0a_2d_4900_2d_8800_2d_aabbccddeeff", "s-host_2d_b-alice-claude_2d_code-0f0e0d0c_2d_0b0a_2d_4900_2d_8800_2d_aabbccddeeff"
	body := section(md, "Sessions")
	for _, w := range []string{
		"| claude-code | [" + sid + "](#" + idA + ") | 2026-12-01T10:00:00.000Z | 1 | 0 | 0 |",
		"| claude-code | [" + sid + "](#" + idB + ") | 2026-12-01T11:00:00.000Z | 1 | 0 | 0 |",
	} {
		if !strings.Contains(md, w) {
			t.Errorf("the session index lacks %q", w)
		}
	}
	if n := strings.Count(body, "\n### "); n != 2 {
		t.Errorf("%d session headings in the body, want 2:\n%s", n, body)
	}
	for _, host := range []string{"a", "b"} {
		id := map[string]string{"a": idA, "b": idB}[host]
		i := strings.Index(body, `<a id="`+id+`"></a>`)
		if i < 0 {
			t.Fatalf("no heading %s in the body:\n%s", id, body)
		}
		sec := body[i:]
		if j := strings.Index(sec[1:], "\n### "); j >= 0 {
			sec = sec[:j+1]
		}
		other := map[string]string{"a": "b", "b": "a"}[host]
		if !strings.Contains(sec, "prompt on host "+host) || strings.Contains(sec, "prompt on host "+other) {
			t.Errorf("host %s's session holds:\n%s", host, sec)
		}
	}
	for _, id := range []string{idA, idB} {
		if strings.Count(page, `<a href="#`+id+`"><rect`) != 1 || strings.Count(page, `<section id="`+id+`">`) != 1 {
			t.Errorf("report.html: %s is not one bar and one section", id)
		}
	}
}

// TestFilteredReportNamesOnlyWhatItKept: a filtered report says its
// filters in the header, and its list of agents present with nothing
// kept names only the agents the filters keep (issue 27: `report --agent
// claude-code` listed another agent's empty folder); unfiltered, the
// empty Gemini CLI folder is named and no filters row is written.
func TestFilteredReportNamesOnlyWhatItKept(t *testing.T) {
	const sid = "0f0e0d0c-0b0a-4900-8800-aabbccddeeff"
	root := filepath.Join(t.TempDir(), "img")
	proj := filepath.Join(root, "home", "alice", ".claude", "projects", "-home-alice-proj")
	for _, d := range []string{proj, filepath.Join(root, "home", "alice", ".gemini", "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	line := `{"type":"user","sessionId":"` + sid + `","cwd":"/home/alice/proj","uuid":"u1","timestamp":"2026-12-01T10:00:00.000Z","message":{"role":"user","content":"hello"}}` + "\n"
	if err := os.WriteFile(filepath.Join(proj, sid+".jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	const gemini = "- loose:img › alice › gemini-cli: present, nothing kept\n"
	for _, c := range []struct {
		name      string
		opts      analyze.Options
		filters   string // the header's filters row, "" for none
		geminiToo bool
	}{
		{"unfiltered", analyze.Options{}, "", true},
		{"--agent claude-code", analyze.Options{Agents: []string{"claude-code"}}, "| filters | agent=claude-code (this report holds only the rows and sessions they kept) |\n", false},
		{"--session 0f0e", analyze.Options{Sessions: []string{"0f0e"}}, "| filters | session=0f0e (this report holds only the rows and sessions they kept) |\n", false},
		{"--user alice", analyze.Options{Users: []string{"alice"}}, "| filters | user=alice (this report holds only the rows and sessions they kept) |\n", true},
	} {
		out := filepath.Join(t.TempDir(), "out")
		c.opts.Inputs, c.opts.OutDir, c.opts.Parsers, c.opts.Jobs, c.opts.TempDir = []string{root}, out, parsers.All(), 1, t.TempDir()
		if _, err := analyze.Timeline(context.Background(), c.opts); err != nil {
			t.Fatal(err)
		}
		files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		mdb, _ := os.ReadFile(files[1])
		htmlb, _ := os.ReadFile(files[0])
		md, page := string(mdb), string(htmlb)
		if got := strings.Contains(md, gemini); got != c.geminiToo {
			t.Errorf("%s: gemini-cli named as present with nothing kept: %v, want %v", c.name, got, c.geminiToo)
		}
		if got := strings.Contains(md, "| filters |"); got != (c.filters != "") || c.filters != "" && !strings.Contains(md, c.filters) {
			t.Errorf("%s: header:\n%.700s\nwant the row %q", c.name, md, c.filters)
		}
		if got := strings.Contains(page, "<tr><th>filters</th>"); got != (c.filters != "") {
			t.Errorf("%s: report.html filters row %v", c.name, got)
		}
		if !strings.Contains(md, "| claude-code | ["+sid+"]") {
			t.Errorf("%s: the session is not in the index", c.name)
		}
	}
}

// TestSourceTableMember: the source-file table gives each file's bundle
// member and SHA-256, and writes the member out only when it is not the
// bundle's plain name for the path (files/ and the path): a path holding
// a % is stored as %25, and that member is written whole.
func TestSourceTableMember(t *testing.T) {
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "01930000-0000-7000-8000-00000000cc01", CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: "host-c"}})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i, home := range []string{"/home/alice", "C:/Users/alice"} {
		sid := fmt.Sprintf("0f0e0d0c-0b0a-4900-8800-aabbccddee0%d", i)
		data := []byte(`{"type":"user","sessionId":"` + sid + `","cwd":"/home/alice/proj","uuid":"u` + fmt.Sprint(i) + `","timestamp":"2026-12-01T10:00:0` + fmt.Sprint(i) + `.000Z","message":{"role":"user","content":"hi"}}` + "\n")
		p := home + "/.claude/projects/-home-alice-proj/" + sid + ".jsonl"
		paths = append(paths, p)
		if _, err := w.AddFile(bundle.Entry{Path: p, Agent: "claude-code", Target: "projects", Kind: "transcript",
			User: "alice", Home: home, Type: "file", MTime: "2026-12-01T00:00:00.000Z"}, int64(len(data)), bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-12-01T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "c.tar.zst")
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{in}, OutDir: out, Parsers: claudecode.Parsers(), Jobs: 1, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	files, err := report.Write(report.Options{Dir: out, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	mdb, _ := os.ReadFile(files[1])
	htmlb, _ := os.ReadFile(files[0])
	md, page := string(mdb), string(htmlb)
	sum := func(i int) string {
		data := []byte(`{"type":"user","sessionId":"` + fmt.Sprintf("0f0e0d0c-0b0a-4900-8800-aabbccddee0%d", i) + `","cwd":"/home/alice/proj","uuid":"u` + fmt.Sprint(i) + `","timestamp":"2026-12-01T10:00:0` + fmt.Sprint(i) + `.000Z","message":{"role":"user","content":"hi"}}` + "\n")
		h := sha256.Sum256(data)
		return hex.EncodeToString(h[:])
	}
	for _, w := range []string{
		"| <a id=\"src-1\"></a>1 | " + paths[0] + " | host-c | 01930000-0000-7000-8000-00000000cc01 | files/+path | " + sum(0) + " | true | 1 | 1 |",
		"| <a id=\"src-2\"></a>2 | C\\:/Users/alice/.claude/projects/-home-alice-proj/0f0e0d0c-0b0a-4900-8800-aabbccddee01.jsonl | host-c | 01930000-0000-7000-8000-00000000cc01 | files/C/Users/alice/.claude/projects/-home-alice-proj/0f0e0d0c-0b0a-4900-8800-aabbccddee01.jsonl | " + sum(1) + " | true | 1 | 1 |",
	} {
		if !strings.Contains(md, w) {
			t.Errorf("report.md lacks the source row\n%s\nin\n%s", w, section(md, "Source files"))
		}
	}
	if !strings.Contains(page, "<td>files/+path</td><td>"+sum(0)+"</td>") ||
		!strings.Contains(page, "<td>files/C/Users/alice/.claude/projects/-home-alice-proj/0f0e0d0c-0b0a-4900-8800-aabbccddee01.jsonl</td><td>"+sum(1)+"</td>") {
		t.Errorf("report.html's source table lacks the members and sums")
	}
	// the monospace columns are styled by the classes of these two tables
	// only (the control-surface and recovered tables are idx tables too)
	if strings.Count(page, `<table class="src">`) != 1 || strings.Count(page, `<table class="idx si">`) != 1 ||
		strings.Contains(page, "table.idx td:nth-child(2)") || !strings.Contains(page, "table.si td:nth-child(2){font:") {
		t.Errorf("the source table or the session index lost its own class, or another idx table is styled as one")
	}
}

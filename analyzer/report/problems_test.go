package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/report"
)

// TestProblemsSection: the report lists the rows of problems.jsonl
// (kind, input, file, line, parser, message; a credential in a message
// redacted), the first maxProblems of them, with a note saying how many
// more there are and where; the evidence section links to it.
func TestProblemsSection(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"inventory.json": "{}\n",
		"sessions.jsonl": "",
		"timeline.jsonl": "",
		"problems.jsonl": `{"host":"h1","bundle_id":"b1","input":"/cases/h1.tar.zst","source_file":"/home/a/.claude/projects/p/s.jsonl","source_line":7,"agent":"claude-code","parser":"claude-code-jsonl","kind":"bad_json","message":"invalid character 'x' looking for beginning of value"}
{"host":"h1","bundle_id":"b1","input":"/cases/h1.tar.zst","source_file":"","source_line":0,"agent":"","parser":"","kind":"truncated","message":"cut at member x (token ghp_0123456789abcdefghijABCDEFGHIJ012345)"}
{"host":"h2","bundle_id":"","input":"/cases/h2","source_file":"","source_line":0,"agent":"","parser":"","kind":"unusable_input","message":"third"}
`,
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer report.SetMaxProblems(2)()
	out, err := report.Write(report.Options{Dir: dir, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(out[1])
	html, _ := os.ReadFile(out[0])
	want := "## <a id=\"problems\"></a>Problems\n\n3 problem(s) from problems.jsonl: every record, file or input that could not be read as it should, and why.\n\n" +
		"| # | kind | input | file | line | parser | message |\n|---|---|---|---|---|---|---|\n" +
		"| 1 | bad\\_json | /cases/h1.tar.zst | /home/a/.claude/projects/p/s.jsonl | 7 | claude-code-jsonl | invalid character 'x' looking for beginning of value |\n" +
		"| 2 | truncated | /cases/h1.tar.zst | \\- | \\- | \\- | cut at member x (token \\[redacted\\]) |\n\n" +
		"*1 more problem(s) are not listed here (the report lists the first 2); every problem is in problems.jsonl beside this report.*\n\n## "
	if got := section(string(md), "Problems"); !strings.Contains(string(md), want) {
		t.Errorf("report.md Problems section:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(string(md), "3 problems (problems.jsonl; listed under [Problems](#problems)): bad\\_json 1, truncated 1, unusable\\_input 1.") {
		t.Errorf("the evidence section does not link to the problems")
	}
	for _, w := range []string{
		`<tr><td>1</td><td>bad_json</td><td><code>/cases/h1.tar.zst</code></td><td><code>/home/a/.claude/projects/p/s.jsonl</code></td><td>7</td><td>claude-code-jsonl</td><td>invalid character &#39;x&#39; looking for beginning of value</td></tr>`,
		`<a href="#problems">Problems</a>`,
	} {
		if !strings.Contains(string(html), w) {
			t.Errorf("report.html lacks %q", w)
		}
	}
	if strings.Contains(string(md)+string(html), "ghp_0123") || strings.Contains(string(md)+string(html), ">third<") {
		t.Errorf("a secret or a problem past the cap is shown")
	}
}

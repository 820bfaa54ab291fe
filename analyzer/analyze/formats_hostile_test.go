package analyze_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/report"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/parquet-go/parquet-go"
)

// hostileText is every way a field breaks a format: invalid UTF-8, a
// lone surrogate's bytes, the bodyfile's separator and escape, CR, DEL,
// NUL, a CSV formula and quote, U+2028.
const hostileText = "a\xffb\xed\xa0\x80c|d%7Ce%zz\rf\x7fg\x00h\"=1+2\u2028i"

// rawParser emits one tool call a line whose text and tool input are the
// line's raw bytes (a parser copying bytes it does not decode).
func rawParser() []parser.Parser {
	parse := func(ctx context.Context, in *parser.Input, out parser.Sink) error {
		rc, err := in.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
			out.Event(timeline.Event{SessionID: "S" + string(line[:2]), TurnType: timeline.ToolUse, ToolName: "Bash", Text: string(line), ToolInput: string(line),
				Model: string(line), SourceLine: n, TimeBasis: timeline.TimeNone})
			return nil
		})
	}
	return []parser.Parser{parser.New(parser.Spec{ID: "claude-code/test-raw", Agent: "claude-code", Version: 1, Targets: []string{"projects"}}, parse)}
}

// TestEveryFormatIsValidUTF8: one hostile input (text, tool input and
// file name carrying invalid UTF-8, a lone surrogate, "|", "%", CR, DEL,
// NUL) written as every format: each file is valid UTF-8, CSV and Parquet
// carry the JSONL's values, Timesketch its rows, and the bodyfile read
// back by Sleuth Kit's mactime (when installed) prints every file with the
// name the JSONL carries.
func TestEveryFormatIsValidUTF8(t *testing.T) {
	name := "/home/alice/.claude/projects/p/" + hostileText + "\nnext.jsonl"
	f := bundletest.File{Path: name, Agent: "claude-code", Target: "projects", User: "alice", Data: []byte("x1 " + hostileText + "\nx2 " + hostileText + "\n")}
	other := primaryFile("alice", "plain", []byte("y1 plain\n"))
	f.MTime = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	other.MTime = f.MTime
	p := makeBundle(t, t.TempDir(), "h.tar.zst", "host-one", "id-h", []bundletest.File{f, other})
	_, out := run(t, analyze.Options{Inputs: []string{p}, Parsers: rawParser(), Format: "jsonl,csv,timesketch,parquet,bodyfile"})
	if _, err := report.Write(report.Options{Dir: out}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{analyze.TimelineJSONL, analyze.TimelineCSV, analyze.TimelineTimesketch, analyze.BodyfileName, analyze.SessionsJSONL,
		analyze.InventoryJSON, analyze.RunJSON, report.HTMLName, report.MarkdownName} {
		b, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(b) {
			i := 0
			for i < len(b) {
				r, sz := utf8.DecodeRune(b[i:])
				if r == utf8.RuneError && sz == 1 {
					break
				}
				i += sz
			}
			t.Errorf("%s is not valid UTF-8 at byte %d: %q", n, i, b[max(0, i-20):min(len(b), i+20)])
		}
	}
	jrows := rows(t, out)
	if len(jrows) != 3 {
		t.Fatalf("%d rows", len(jrows))
	}
	// (The line reader drops the NUL; the bundle writes the path's invalid
	// bytes and controls as %XX.)
	wantText := "x1 a\ufffdb\ufffd\ufffd\ufffdc|d%7Ce%zz\rf\x7fgh\"=1+2\u2028i"
	if jrows[0].Text != wantText || jrows[0].ToolInput != wantText || !strings.Contains(jrows[0].SourceFile, "c|d%257Ce") {
		t.Fatalf("JSONL row %q %q", jrows[0].Text, jrows[0].SourceFile)
	}
	// CSV: the same values (a cell starting with a formula character is
	// prefixed with ' as CSVCell documents).
	cf, err := os.Open(filepath.Join(out, analyze.TimelineCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	recs, err := csv.NewReader(cf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d CSV records", len(recs))
	}
	for i, jr := range jrows {
		want := jr.Values()
		for k := range want {
			if got := recs[i+1][k]; got != analyze.CSVCell(want[k]) {
				t.Errorf("CSV row %d %s = %q, JSONL %q", i, timeline.Fields[k], got, want[k])
			}
		}
	}
	// Parquet: the same strings.
	prs, err := parquet.ReadFile[analyze.ParquetRow](filepath.Join(out, analyze.TimelineParquet))
	if err != nil {
		t.Fatal(err)
	}
	for i, pr := range prs {
		jr := jrows[i]
		if pr.Text != jr.Text || pr.ToolInput != jr.ToolInput || pr.SourceFile != jr.SourceFile || pr.Model != jr.Model || pr.SessionID != jr.SessionID {
			t.Errorf("Parquet row %d differs from the JSONL: %q %q", i, pr.Text, pr.SourceFile)
		}
	}
	// Timesketch: the JSONL's fields.
	tb, _ := os.ReadFile(filepath.Join(out, analyze.TimelineTimesketch))
	for i, l := range bytes.Split(bytes.TrimSpace(tb), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatal(err)
		}
		if m["text"] != jrows[i].Text || m["source_file"] != jrows[i].SourceFile {
			t.Errorf("Timesketch row %d: %q", i, m["text"])
		}
	}
	// Bodyfile: one line a file, 11 fields.
	bb, _ := os.ReadFile(filepath.Join(out, analyze.BodyfileName))
	lines := strings.Split(strings.TrimSuffix(string(bb), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("bodyfile has %d lines: %q", len(lines), bb)
	}
	for _, l := range lines {
		if n := len(strings.Split(l, "|")); n != 11 {
			t.Errorf("bodyfile line of %d fields: %q", n, l)
		}
	}
	mactime(t, filepath.Join(out, analyze.BodyfileName), []string{"host-one:" + jrows[0].SourceFile, "host-one:/home/alice/.claude/projects/p/plain.jsonl"})
}

// mactime runs Sleuth Kit's mactime on a bodyfile and checks it prints a
// row for each name. With DOUBLEAGENT_MACTIME_TEST=1 (scripts/test.sh) a
// missing mactime fails the test.
func mactime(t *testing.T, body string, names []string) {
	t.Helper()
	bin, err := exec.LookPath("mactime")
	if err != nil {
		if os.Getenv("DOUBLEAGENT_MACTIME_TEST") == "1" {
			t.Fatal("DOUBLEAGENT_MACTIME_TEST=1 but no mactime on PATH (apt-get install sleuthkit)")
		}
		t.Skip("no mactime on PATH: the bodyfile check needs Sleuth Kit's mactime (scripts/test.sh installs Debian's sleuthkit)")
	}
	out, err := exec.Command(bin, "-b", body, "-z", "UTC", "-d", "-y").CombinedOutput()
	if err != nil {
		t.Fatalf("mactime: %v\n%s", err, out)
	}
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("mactime output: %v\n%s", err, out)
	}
	printed := map[string]bool{}
	for _, rec := range recs {
		if len(rec) == 8 && strings.HasPrefix(rec[2], "m") {
			printed[rec[7]] = true
		}
	}
	for _, n := range names {
		if !printed[n] {
			t.Errorf("mactime prints no modification row for %q:\n%s", n, out)
		}
	}
}

// Package parsertest helps test parsers: it builds Inputs from files in
// testdata, collects what a parser emits, compares it with golden JSON Lines
// files (rewritten with -update), and builds SQLite fixtures from SQL text.
//
// Every parser package's TestMain calls Main: after the tests it checks
// the goldens they read against testdata/versions.json (parser id ->
// Spec.Version and each golden's SHA-256) and fails on a golden whose
// content changed while its parser's version did not, and, after a
// complete run, on a golden file no test read. To change a parser's rows:
// bump its Spec.Version, run go test ./... -update, review the goldens'
// diff and commit them with versions.json.
package parsertest

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"

	_ "modernc.org/sqlite" // the analyzer's SQLite driver
)

// Update rewrites golden files instead of comparing: go test ./... -update
var Update = flag.Bool("update", false, "rewrite golden files")

// SharedSamples returns ../shared/agent-samples/<rel> found by walking up
// from the working directory, or skips the test with a clear message.
func SharedSamples(t testing.TB, rel string) string {
	t.Helper()
	dir, _ := os.Getwd()
	for i := 0; i < 8; i++ {
		p := filepath.Join(dir, "..", "shared", "agent-samples", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		dir = filepath.Dir(dir)
	}
	t.Skipf("shared agent samples not found (../shared/agent-samples/%s): skipping real-sample test", rel)
	return ""
}

// Files maps original host paths to local files, for OpenRelated and List.
type Files map[string]string

// Input builds an Input for the local file at local, presented as f.
// related maps other original paths to local files.
func Input(t testing.TB, local string, f parser.File, related Files) *parser.Input {
	t.Helper()
	if f.Path == "" {
		f.Path = "/home/examiner/" + filepath.Base(local)
	}
	if f.Size == 0 {
		if st, err := os.Stat(local); err == nil {
			f.Size = st.Size()
		}
	}
	in := &parser.Input{File: f}
	in.OpenFunc = func() (io.ReadCloser, error) { return os.Open(local) }
	in.DBFunc = func(ctx context.Context) (*sql.DB, error) {
		// Like the engine: open a private copy with its sidecars, so a
		// fixture store (a real agent's, kept as written) is never touched;
		// SQLite rewrites -shm even on a read-only open.
		dir := t.TempDir()
		dst := filepath.Join(dir, filepath.Base(local))
		for _, suf := range []string{"", "-wal", "-shm", "-journal"} {
			b, err := os.ReadFile(local + suf)
			if err != nil {
				if suf == "" {
					return nil, err
				}
				continue
			}
			if err := os.WriteFile(dst+suf, b, 0o600); err != nil {
				return nil, err
			}
		}
		db, err := sql.Open("sqlite", "file:"+dst+"?_pragma=query_only(1)")
		if err != nil {
			return nil, err
		}
		// one connection, as the engine opens a store: a parser that runs
		// a query while another's rows are open waits for ever there, so it
		// must here too (the test times out rather than passing)
		db.SetMaxOpenConns(1)
		return db, nil
	}
	in.RelatedFunc = func(orig string) (io.ReadCloser, error) {
		if l, ok := related[orig]; ok {
			return os.Open(l)
		}
		return nil, parser.ErrNotCollected
	}
	in.ListFunc = func(pattern string) []parser.File {
		var out []parser.File
		for orig, l := range related {
			if ok, _ := doublestar.Match(pattern, orig); ok {
				st, _ := os.Stat(l)
				pf := parser.File{Path: orig, Agent: f.Agent, Host: f.Host, User: f.User}
				if st != nil {
					pf.Size, pf.MTime = st.Size(), st.ModTime().UTC()
				}
				out = append(out, pf)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		return out
	}
	return in
}

// Sink collects what a parser emits.
type Sink struct {
	Events   []timeline.Event
	States   []timeline.SessionState
	Problems []string
	// Skips are the records accounted for without a row, in order.
	Skips  []Skip
	parser string
	file   string
	agent  string
}

// Event implements parser.Sink.
func (s *Sink) Event(e timeline.Event) {
	if e.SourceFile == "" {
		e.SourceFile = s.file
	}
	if e.Agent == "" {
		e.Agent = s.agent
	}
	e.Parser = s.parser
	e.Seq = int64(len(s.Events))
	s.Events = append(s.Events, e)
}

// Session implements parser.Sink.
func (s *Sink) Session(st timeline.SessionState) { s.States = append(s.States, st) }

// Problem implements parser.Sink.
func (s *Sink) Problem(line int64, msg string) {
	s.Problems = append(s.Problems, fmt.Sprintf("line %d: %s", line, msg))
}

// Report implements parser.Sink.
func (s *Sink) Report(line int64, kind, msg string) {
	if kind == parser.KindParse {
		s.Problem(line, msg)
		return
	}
	s.Problems = append(s.Problems, fmt.Sprintf("line %d: %s: %s", line, kind, msg))
}

// Skip is one record accounted for without a row.
type Skip struct {
	Line   int64
	Reason string
}

// Skip implements parser.Sink.
func (s *Sink) Skip(line int64, reason string) { s.Skips = append(s.Skips, Skip{line, reason}) }

// SkipCounts returns the skipped records counted by reason.
func (s *Sink) SkipCounts() map[string]int {
	m := map[string]int{}
	for _, k := range s.Skips {
		m[k.Reason]++
	}
	return m
}

// Run parses in with p and returns what it emitted, sorted in timeline
// order. A returned error is added as a problem "error: ...".
func Run(t testing.TB, p parser.Parser, in *parser.Input) *Sink {
	t.Helper()
	s := &Sink{parser: p.ID(), file: in.Path, agent: p.Agent()}
	if err := p.Parse(context.Background(), in, s); err != nil {
		s.Problems = append(s.Problems, "error: "+err.Error())
	}
	sort.SliceStable(s.Events, func(i, j int) bool { return timeline.Less(&s.Events[i], &s.Events[j]) })
	return s
}

// Render returns events as JSON Lines in timeline field order, then the
// session states and problems as trailing JSON lines.
func Render(s *Sink) []byte {
	var b bytes.Buffer
	for i := range s.Events {
		// action is the engine's enrichment: shown only where the parser
		// set it itself.
		n := b.Len()
		_ = timeline.AppendJSON(&b, s.Events[i].ToRow())
		if s.Events[i].Action == "" {
			line := b.Bytes()[n:]
			if k := bytes.LastIndex(line, []byte(`,"action":""}`)); k >= 0 {
				b.Truncate(n + k)
				b.WriteString("}\n")
			}
		}
	}
	for _, st := range s.States {
		_ = timeline.AppendJSON(&b, map[string]any{"session_state": st})
	}
	for _, p := range s.Problems {
		_ = timeline.AppendJSON(&b, map[string]string{"problem": p})
	}
	if len(s.Skips) > 0 {
		_ = timeline.AppendJSON(&b, map[string]any{"skipped": s.SkipCounts()})
	}
	return b.Bytes()
}

// Golden parses in with p and compares the rendered output with the golden
// file (rewritten under -update). It returns the sink for further checks.
// The package's TestMain must call Main, which checks the goldens read
// against the parser versions recorded in VersionsFile.
// A JSON Lines input is also checked for accounting (see Accounted).
func Golden(t testing.TB, p parser.Parser, in *parser.Input, golden string) *Sink {
	t.Helper()
	recordGolden(p, golden)
	s := Run(t, p, in)
	if isLineBased(in.Path) && !notYetAccounted[p.Agent()] {
		Accounted(t, in, s)
	}
	got := Render(s)
	if isJSONText(in.Path) {
		// Read as the agent reads: the same file written by a Windows
		// editor (a UTF-8 BOM, CRLF line ends) gives the same output.
		alt := Render(Run(t, p, bomCRLF(t, in)))
		if d := firstDiff(comparable(alt), comparable(got)); d != "" {
			t.Errorf("%s: with a UTF-8 BOM and CRLF line ends the output differs: %s", in.Path, d)
		}
	}
	if *Update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return s
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden %s: %v (run with -update to create it)", golden, err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\n got: %.400s\nwant: %.400s\n(run go test -update and review the diff)", golden, i+1, g, w)
			}
		}
	}
	return s
}

// GoldenBytes compares got, the rendered output of the parsers ps over
// several files (a conversation folder, say), with the golden file, as
// Golden does for one file, and records the golden for each parser.
func GoldenBytes(t testing.TB, got []byte, golden string, ps ...parser.Parser) {
	t.Helper()
	for _, p := range ps {
		recordGolden(p, golden)
	}
	if *Update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden %s: %v (run with -update to create it)", golden, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs (run go test -update and review the diff)", golden)
	}
}

// notYetAccounted lists the agents whose parsers do not yet account for
// every record (rows, Skip or a problem per line). The list only shrinks:
// each agent leaves it when its parser is brought to the contract.
var notYetAccounted = map[string]bool{}

// isJSONText reports whether p names a JSON, JSONC or JSON Lines file.
func isJSONText(p string) bool {
	for _, ext := range []string{".json", ".jsonc", ".jsonl", ".ndjson"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

var (
	contentHash = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
	crInString  = regexp.MustCompile(`invalid character '\\\\r'`)
	fileSize    = regexp.MustCompile(`\\"size\\":[0-9]+`)
)

// comparable masks in a rendered output what legitimately differs between
// a file and its BOM-and-CRLF copy: a content hash and size a row carries
// (of the file's bytes, which differ), a quote of the file's text (which
// keeps its CRs, escaped once or twice), and a decoder's complaint about the first
// raw line end inside a cut string ('\r' now, '\n' before).
func comparable(b []byte) string {
	s := contentHash.ReplaceAllString(string(b), "<sha256>")
	s = fileSize.ReplaceAllString(s, `\"size\":<n>`)
	s = strings.NewReplacer(`\\r\\n`, `\\n`, `\r\n`, `\n`).Replace(s)
	return crInString.ReplaceAllString(s, `invalid character '\\n'`)
}

// firstDiff describes the first line where got and want differ, "" when
// they are equal.
func firstDiff(got, want string) string {
	if got == want {
		return ""
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			k := 0
			for k < len(g) && k < len(w) && g[k] == w[k] {
				k++
			}
			from := max(0, k-200)
			return fmt.Sprintf("line %d, byte %d:\n got: …%.400s\nwant: …%.400s", i+1, k, g[from:], w[from:])
		}
	}
	return ""
}

// bomCRLF returns in with its content written as a Windows editor writes
// it: a UTF-8 BOM first and every LF a CRLF.
func bomCRLF(t testing.TB, in *parser.Input) *parser.Input {
	t.Helper()
	rc, err := in.OpenRaw()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	b = append([]byte(parser.BOM), bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))...)
	alt := *in
	alt.Size = int64(len(b))
	alt.OpenFunc = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	return &alt
}

func isLineBased(p string) bool {
	return strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".ndjson")
}

// Accounted fails the test when a non-blank line of in (a JSON Lines file)
// gave no row naming it, no Skip and no problem: every record a parser
// reads ends as rows, a counted skip or a problem.
func Accounted(t testing.TB, in *parser.Input, s *Sink) {
	t.Helper()
	rc, err := in.Open()
	if err != nil {
		t.Fatalf("accounting: open %s: %v", in.Path, err)
	}
	defer rc.Close()
	seen := map[int64]bool{}
	for i := range s.Events {
		if e := &s.Events[i]; e.SourceFile == in.Path {
			seen[e.SourceLine] = true
		}
	}
	for _, k := range s.Skips {
		seen[k.Line] = true
	}
	for _, p := range s.Problems {
		var n int64
		if _, err := fmt.Sscanf(p, "line %d:", &n); err == nil {
			seen[n] = true
		}
	}
	var missing []int64
	_ = parser.Lines(context.Background(), rc, nil, func(n int64, _ []byte) error {
		if !seen[n] {
			missing = append(missing, n)
		}
		return nil
	})
	if len(missing) > 0 {
		t.Errorf("%s: %d record(s) gave no row, no Skip and no problem (lines %v): every record must be accounted for", in.Path, len(missing), firstN(missing, 20))
	}
}

func firstN(v []int64, n int) []int64 {
	if len(v) > n {
		return v[:n]
	}
	return v
}

// SQLite builds a SQLite database from the SQL text file sqlPath in a
// temporary folder and returns its path.
func SQLite(t testing.TB, sqlPath string) string {
	t.Helper()
	text, err := os.ReadFile(sqlPath)
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(sqlPath), ".sql")+".db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(text)); err != nil {
		t.Fatalf("build %s: %v", sqlPath, err)
	}
	return dbPath
}

// Time parses an RFC 3339 time for assertions.
func Time(t testing.TB, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm.UTC()
}

// SQLiteAltered builds a database from sqlPath as SQLite does and runs
// stmts on it (drop a table, rename a column) with modernc.org/sqlite;
// it returns the path of the altered copy.
func SQLiteAltered(t testing.TB, sqlPath string, stmts ...string) string {
	t.Helper()
	p := SQLite(t, sqlPath)
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return p
}

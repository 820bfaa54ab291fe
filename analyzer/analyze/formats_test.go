package analyze_test

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/parquet-go/parquet-go"
)

// TestSeveralFormatsAtOnce: --format jsonl,csv,parquet,bodyfile writes
// every file; Parquet reads back typed (timestamps UTC, null when
// undated, source_line INT64) with the same rows as the JSONL.
func TestSeveralFormatsAtOnce(t *testing.T) {
	data := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "dated", ID: "u1"},
		testRow{Session: "A", Type: "system", Text: "undated"})
	mt := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	f := primaryFile("alice", "A", data)
	f.MTime = mt
	p := makeBundle(t, t.TempDir(), "f.tar.zst", "host-one", "id-f", []bundletest.File{f})
	sum, out := run(t, analyze.Options{Inputs: []string{p}, Parsers: testParsers(), Format: "parquet,jsonl,csv,bodyfile"})
	var names []string
	for _, f := range sum.Files {
		names = append(names, filepath.Base(f))
	}
	if got := strings.Join(names, " "); got != "timeline.jsonl timeline.csv timeline.parquet collection.bodyfile sessions.jsonl inventory.json problems.jsonl run.json" {
		t.Fatalf("files %s", got)
	}
	prs, err := parquet.ReadFile[analyze.ParquetRow](filepath.Join(out, analyze.TimelineParquet))
	if err != nil {
		t.Fatal(err)
	}
	if len(prs) != 2 || prs[0].TimestampUTC == nil || !prs[0].TimestampUTC.Equal(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)) ||
		prs[0].TimestampUTC.Location() != time.UTC || prs[0].SourceLine != 1 || prs[0].Text != "dated" || prs[1].TimestampUTC != nil || prs[1].Text != "undated" {
		t.Fatalf("parquet rows %+v", prs)
	}
	pf, err := os.Open(filepath.Join(out, analyze.TimelineParquet))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	st, _ := pf.Stat()
	file, err := parquet.OpenFile(pf, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	schema := file.Schema().String()
	for _, want := range []string{"optional int64 timestamp_utc (TIMESTAMP(isAdjustedToUTC=true,unit=MILLIS))", "required int64 source_line", "required binary text (STRING)"} {
		if !strings.Contains(schema, want) {
			t.Errorf("schema lacks %q:\n%s", want, schema)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, analyze.BodyfileName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1 {
		t.Fatalf("bodyfile %q", b)
	}
	fields := strings.Split(lines[0], "|")
	if len(fields) != 11 || len(fields[0]) != 64 || fields[1] != "host-one:/home/alice/.claude/projects/p/A.jsonl" || fields[8] != "1777636800" {
		t.Fatalf("bodyfile line %q", lines[0])
	}
}

// TestCSVLongCellIsCut: a cell longer than a spreadsheet holds is cut at
// 32,767 characters with a marker saying where the whole text is.
func TestCSVLongCellIsCut(t *testing.T) {
	long := strings.Repeat("é", 40000)
	data := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "assistant", Text: long, ID: "a1"})
	p := makeBundle(t, t.TempDir(), "c.tar.zst", "h", "id-csv", []bundletest.File{primaryFile("alice", "A", data)})
	_, out := run(t, analyze.Options{Inputs: []string{p}, Parsers: testParsers(), Format: "csv"})
	f, err := os.Open(filepath.Join(out, analyze.TimelineCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cell := recs[1][10]
	if n := utf8.RuneCountInString(cell); n != analyze.CSVCellMax {
		t.Fatalf("cell of %d characters", n)
	}
	if !strings.HasSuffix(cell, " of 40000 characters shown; the whole text is in the JSON Lines timeline (--format jsonl), the row of /home/alice/.claude/projects/p/A.jsonl line 1]") {
		t.Fatalf("marker: %q", cell[len(cell)-200:])
	}
}

// TestRunRecordAndReusedOutputFolder: run.json records the command line,
// parsers, each input with its hash and verdict, each output with its size
// and hash; a folder holding a run is refused unless Force, which removes
// that run's files (and nothing else).
func TestRunRecordAndReusedOutputFolder(t *testing.T) {
	data := rowsJSON(testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "x", ID: "u1"})
	p := makeBundle(t, t.TempDir(), "r.tar.zst", "h", "id-run", []bundletest.File{primaryFile("alice", "A", data)})
	out := filepath.Join(t.TempDir(), "out")
	opts := analyze.Options{Inputs: []string{p}, OutDir: out, Parsers: testParsers(), Format: "jsonl,csv", CommandLine: []string{"doubleagent", "timeline"}, ToolVersion: "9.9"}
	if _, err := analyze.Timeline(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("examiner's own file"), 0o644)
	rec := runRecord(t, out)
	bb, _ := os.ReadFile(p)
	sum := sha256.Sum256(bb)
	if rec.ToolVersion != "9.9" || strings.Join(rec.CommandLine, " ") != "doubleagent timeline" || len(rec.Inputs) != 1 ||
		rec.Inputs[0].SHA256 != hex.EncodeToString(sum[:]) || rec.Inputs[0].Verified != "all" || rec.Inputs[0].BundleID != "id-run" || len(rec.Parsers) != 2 {
		t.Fatalf("run.json %+v", rec)
	}
	var files []string
	for _, o := range rec.Outputs {
		got, _ := os.ReadFile(filepath.Join(out, o.File))
		h := sha256.Sum256(got)
		if int64(len(got)) != o.Size || hex.EncodeToString(h[:]) != o.SHA256 {
			t.Errorf("%s: size/hash in run.json do not match the file", o.File)
		}
		files = append(files, o.File)
	}
	if strings.Join(files, " ") != "timeline.jsonl timeline.csv sessions.jsonl inventory.json problems.jsonl" {
		t.Fatalf("outputs %v", files)
	}
	opts.Format = "jsonl"
	if _, err := analyze.Timeline(context.Background(), opts); !errors.Is(err, analyze.ErrOutputInUse) {
		t.Fatalf("reused folder: %v", err)
	}
	opts.Force = true
	if _, err := analyze.Timeline(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, analyze.TimelineCSV)); !os.IsNotExist(err) {
		t.Fatalf("--force left the earlier run's timeline.csv: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "notes.txt")); err != nil || string(b) != "examiner's own file" {
		t.Fatalf("--force touched a file no run writes: %v", err)
	}
}

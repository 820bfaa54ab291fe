package analyze_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
	"github.com/parquet-go/parquet-go"
)

// lakeCase is two bundles of two cases and hosts (one host name with a
// slash, one case name with a slash and a percent sign), rows on two days
// and one undated row, written with --partition-by-host.
func lakeCase(t *testing.T, formats string) (*analyze.Summary, string) {
	t.Helper()
	a := makeCaseBundle(t, t.TempDir(), "a.tar.zst", "host-a", "IR-1", "id-a", []bundletest.File{primaryFile("alice", "A", rowsJSON(
		testRow{T: "2026-05-01T23:59:59Z", Session: "A", Type: "user", Text: "late", ID: "u1"},
		testRow{T: "2026-05-02T00:00:00Z", Session: "A", Type: "assistant", Text: "midnight", ID: "a1"},
		testRow{Session: "A", Type: "system", Text: "undated", ID: "s1"}))})
	b := makeCaseBundle(t, t.TempDir(), "b.tar.zst", "host/b:1", "IR/2 100%", "id-b", []bundletest.File{primaryFile("bob", "B", rowsJSON(
		testRow{T: "2026-05-01T10:00:00Z", Session: "B", Type: "user", Text: "early", ID: "u2"}))})
	return run(t, analyze.Options{Inputs: []string{a, b}, Parsers: testParsers(), Format: formats, PartitionByHost: true})
}

// listFiles lists the regular files under dir, relative, '/'-separated.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParquetHivePartitions: --partition-by-host writes
// case=/host=/day=/part-0.parquet, each file holding exactly that
// partition's rows in time order, names %-escaped, undated rows under
// day=undated, the schema and layout versions in each file's metadata,
// and run.json listing every file.
func TestParquetHivePartitions(t *testing.T) {
	_, out := lakeCase(t, "jsonl,parquet")
	dir := filepath.Join(out, analyze.TimelineParquet)
	want := map[string]string{
		"case=IR%2F2 100%25/host=host%2Fb%3A1/day=2026-05-01/part-0.parquet": "early",
		"case=IR-1/host=host-a/day=2026-05-01/part-0.parquet":                "late",
		"case=IR-1/host=host-a/day=2026-05-02/part-0.parquet":                "midnight",
		"case=IR-1/host=host-a/day=undated/part-0.parquet":                   "undated",
	}
	got := listFiles(t, dir)
	if len(got) != len(want) {
		t.Fatalf("files %v", got)
	}
	total := 0
	for _, rel := range got {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		rs, err := parquet.ReadFile[analyze.ParquetRow](p)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, r := range rs {
			texts = append(texts, r.Text)
		}
		if strings.Join(texts, ",") != want[rel] {
			t.Errorf("%s holds %v, want %s", rel, texts, want[rel])
		}
		total += len(rs)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		sv, _ := pf.Lookup("doubleagent.schema_version")
		lv, _ := pf.Lookup("doubleagent.parquet_layout")
		if sv != timeline.SchemaVersion || lv != "2" {
			t.Errorf("%s metadata schema %q layout %q", rel, sv, lv)
		}
		f.Close()
	}
	if rows := rows(t, out); total != len(rows) || total != 4 {
		t.Errorf("%d Parquet rows, %d timeline rows", total, len(rows))
	}
	rec := runRecord(t, out)
	listed := map[string]bool{}
	for _, o := range rec.Outputs {
		listed[o.File] = true
	}
	for rel := range want {
		if !listed["timeline.parquet/"+rel] {
			t.Errorf("run.json does not list %s", rel)
		}
	}
}

// TestTimesketchPerHost: with --partition-by-host the Timesketch timeline
// is one file per host (timeline.timesketch/<host>.jsonl, %-escaped),
// each with that host's rows in time order; without it, one file as
// before. --force on the folder removes the per-host files.
func TestTimesketchPerHost(t *testing.T) {
	_, out := lakeCase(t, "timesketch")
	dir := filepath.Join(out, analyze.TimesketchDir)
	got := listFiles(t, dir)
	if strings.Join(got, " ") != "host%2Fb%3A1.jsonl host-a.jsonl" {
		t.Fatalf("files %v", got)
	}
	for name, want := range map[string][]string{
		"host-a.jsonl":       {"2026-05-01T23:59:59.000Z user late", "2026-05-02T00:00:00.000Z assistant midnight", "1970-01-01T00:00:00.000Z system undated"},
		"host%2Fb%3A1.jsonl": {"2026-05-01T10:00:00.000Z user early"},
	} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(lines) != len(want) {
			t.Fatalf("%s: %d lines", name, len(lines))
		}
		for i, l := range lines {
			var r struct {
				Datetime string `json:"datetime"`
				TurnType string `json:"turn_type"`
				Text     string `json:"text"`
				Host     string `json:"host"`
				Message  string `json:"message"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			if g := r.Datetime + " " + r.TurnType + " " + r.Text; g != want[i] || r.Message == "" || !strings.HasPrefix(name, strings.NewReplacer("/", "%2F", ":", "%3A").Replace(r.Host)) {
				t.Errorf("%s line %d: %s (host %s), want %s", name, i+1, g, r.Host, want[i])
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, analyze.TimelineTimesketch)); !os.IsNotExist(err) {
		t.Errorf("the single Timesketch file is written too: %v", err)
	}
	// A second run with --force replaces the per-host files.
	opts := analyze.Options{Inputs: []string{makeBundle(t, t.TempDir(), "c.tar.zst", "host-c", "id-c", []bundletest.File{primaryFile("carol", "C", rowsJSON(
		testRow{T: "2026-05-03T10:00:00Z", Session: "C", Type: "user", Text: "c", ID: "u3"}))})},
		OutDir: out, Parsers: testParsers(), Format: "timesketch", PartitionByHost: true, Force: true, TempDir: t.TempDir()}
	if _, err := analyze.Timeline(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := listFiles(t, dir); strings.Join(got, " ") != "host-c.jsonl" {
		t.Fatalf("after --force: %v", got)
	}
}

// TestPartitionNamesDifferingInCase: hosts WS-01 and ws-01 (and cases
// IR-1 and ir-1) would share a folder on a case-insensitive file system;
// the second to appear has every letter %-escaped, in Parquet and
// Timesketch (TestDuckDBFleetQuery shows DuckDB decodes it back).
func TestPartitionNamesDifferingInCase(t *testing.T) {
	a := makeCaseBundle(t, t.TempDir(), "a.tar.zst", "WS-01", "IR-1", "id-a", []bundletest.File{primaryFile("alice", "A", rowsJSON(
		testRow{T: "2026-05-01T10:00:00Z", Session: "A", Type: "user", Text: "upper", ID: "u1"}))})
	b := makeCaseBundle(t, t.TempDir(), "b.tar.zst", "ws-01", "ir-1", "id-b", []bundletest.File{primaryFile("bob", "B", rowsJSON(
		testRow{T: "2026-05-01T11:00:00Z", Session: "B", Type: "user", Text: "lower", ID: "u2"}))})
	_, out := run(t, analyze.Options{Inputs: []string{a, b}, Parsers: testParsers(), Format: "parquet,timesketch", PartitionByHost: true})
	if got := strings.Join(listFiles(t, filepath.Join(out, analyze.TimesketchDir)), " "); got != "%77%73-01.jsonl WS-01.jsonl" {
		t.Errorf("Timesketch files %s", got)
	}
	got := listFiles(t, filepath.Join(out, analyze.TimelineParquet))
	if strings.Join(got, " ") != "case=%69%72-1/host=%77%73-01/day=2026-05-01/part-0.parquet case=IR-1/host=WS-01/day=2026-05-01/part-0.parquet" {
		t.Fatalf("Parquet files %v", got)
	}
	rs, err := parquet.ReadFile[analyze.ParquetRow](filepath.Join(out, analyze.TimelineParquet, filepath.FromSlash(got[0])))
	if err != nil || len(rs) != 1 || rs[0].Host != "ws-01" || rs[0].Text != "lower" {
		t.Fatalf("%v %+v", err, rs)
	}
}

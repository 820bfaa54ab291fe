package outputs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/parquet-go/parquet-go"
)

// Outputs laid out for a data lake (--partition-by-host): the Parquet
// timeline Hive-partitioned by case, host and UTC day, and the Timesketch
// timeline one file per host. See output.md.

// ParquetLayout is the version of the Parquet output's layout, recorded in
// every Parquet file's key-value metadata (doubleagent.parquet_layout)
// beside the timeline schema (doubleagent.schema_version):
//
//	1: timeline.parquet, or with --partition-by-host host=<host>/part-0.parquet
//	2: with --partition-by-host, case=<case>/host=<host>/day=<YYYY-MM-DD>/part-<n>.parquet
const ParquetLayout = "2"

// TimesketchDir holds one Timesketch JSONL per host with --partition-by-host.
const TimesketchDir = "timeline.timesketch"

// UndatedDay is the day partition of rows without a time.
const UndatedDay = "undated"

// partNames gives each name (a host, a case) its path element: the
// partitionName escape; where that equals an earlier name's element but
// for letter case (WS-01 after ws-01: one folder on a case-insensitive
// file system such as an examiner's macOS or Windows disk), every letter
// %-escaped too (%57%53-01). Hive readers (DuckDB, Spark) decode the
// element back to the name; in order of first appearance, so the same
// input gives the same paths.
type partNames struct {
	elem map[string]string // name -> element
	fold map[string]bool   // lower-cased elements in use
}

func newPartNames() *partNames {
	return &partNames{elem: map[string]string{}, fold: map[string]bool{}}
}

func (p *partNames) get(name string) string {
	if e, ok := p.elem[name]; ok {
		return e
	}
	e := partitionName(name)
	if p.fold[strings.ToLower(e)] {
		e = partitionNameCased(name)
	}
	p.fold[strings.ToLower(e)] = true
	p.elem[name] = e
	return e
}

// partitionNameCased is partitionName with every cased letter %-escaped
// (its UTF-8 bytes), so the element has no letter whose case a file
// system could fold.
func partitionNameCased(h string) string {
	var b strings.Builder
	for _, r := range h {
		if unicode.ToLower(r) != r || unicode.ToUpper(r) != r {
			var buf [utf8.UTFMax]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				fmt.Fprintf(&b, "%%%02X", c)
			}
			continue
		}
		b.WriteString(partitionName(string(r)))
	}
	return b.String()
}

// parquetOptions are the writer options of every Parquet timeline file.
func parquetOptions() []parquet.WriterOption {
	return []parquet.WriterOption{parquet.Compression(&parquet.Zstd),
		parquet.KeyValueMetadata("doubleagent.schema_version", timeline.SchemaVersion),
		parquet.KeyValueMetadata("doubleagent.parquet_layout", ParquetLayout)}
}

// lakeParquet writes timeline.parquet/case=C/host=H/day=D/part-N.parquet.
// Rows come in time order (undated last), so when a row of a later day
// comes, every file of the earlier days is closed: the files open at once
// are those of one day, never the whole fleet's. A partition that gets rows
// again after it was closed (not expected of sorted rows) gets a new part
// file, never an overwrite.
type lakeParquet struct {
	dir    string
	caseOf func(bundleID string) string
	day    string
	open   map[string]*parquetFile
	parts  map[string]int
	cases  *partNames
	hosts  *partNames
}

func newLakeParquet(dir string, caseOf func(string) string) *lakeParquet {
	return &lakeParquet{dir: dir, caseOf: caseOf, open: map[string]*parquetFile{}, parts: map[string]int{}, cases: newPartNames(), hosts: newPartNames()}
}

// dayOf is the row's UTC day, or UndatedDay.
func dayOf(e *timeline.Event) string {
	if e.Time.IsZero() {
		return UndatedDay
	}
	return e.Time.UTC().Format("2006-01-02")
}

func (p *lakeParquet) write(e *timeline.Event) error {
	day := dayOf(e)
	if day != p.day {
		if err := p.closeOpen(); err != nil {
			return err
		}
		p.day = day
	}
	c := ""
	if p.caseOf != nil {
		c = p.caseOf(e.BundleID)
	}
	rel := filepath.Join("case="+p.cases.get(c), "host="+p.hosts.get(e.Host), "day="+day)
	pf := p.open[rel]
	if pf == nil {
		d := filepath.Join(p.dir, TimelineParquet, rel)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		f, err := createOutput(filepath.Join(d, fmt.Sprintf("part-%d.parquet", p.parts[rel])))
		if err != nil {
			return err
		}
		p.parts[rel]++
		pf = &parquetFile{f: f, w: parquet.NewGenericWriter[ParquetRow](f, parquetOptions()...)}
		p.open[rel] = pf
	}
	_, err := pf.w.Write([]ParquetRow{parquetRowOf(e)})
	return err
}

func (p *lakeParquet) closeOpen() error {
	keys := make([]string, 0, len(p.open))
	for k := range p.open {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var first error
	for _, k := range keys {
		pf := p.open[k]
		if err := pf.w.Close(); err != nil && first == nil {
			first = err
		}
		if err := pf.f.Close(); err != nil && first == nil {
			first = err
		}
		delete(p.open, k)
	}
	return first
}

func (p *lakeParquet) close() error {
	if err := os.MkdirAll(filepath.Join(p.dir, TimelineParquet), 0o755); err != nil {
		return err
	}
	return p.closeOpen()
}

// hostTimesketch writes timeline.timesketch/<host>.jsonl, one Timesketch
// timeline per host, each in time order. A host's file stays open for the
// run (one descriptor and a 64 KiB buffer per host).
type hostTimesketch struct {
	dir   string
	w     map[string]*timesketchRows
	hosts *partNames
}

func newHostTimesketch(dir string) (*hostTimesketch, error) {
	if err := os.Mkdir(filepath.Join(dir, TimesketchDir), 0o755); err != nil {
		return nil, err
	}
	return &hostTimesketch{dir: dir, w: map[string]*timesketchRows{}, hosts: newPartNames()}, nil
}

func (h *hostTimesketch) write(e *timeline.Event) error {
	w := h.w[e.Host]
	if w == nil {
		f, err := createOutput(filepath.Join(h.dir, TimesketchDir, h.hosts.get(e.Host)+".jsonl"))
		if err != nil {
			return err
		}
		w = &timesketchRows{jsonlRows{f: f, w: timeline.NewWriter(f)}}
		h.w[e.Host] = w
	}
	return w.write(e)
}

func (h *hostTimesketch) close() error {
	keys := make([]string, 0, len(h.w))
	for k := range h.w {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var first error
	for _, k := range keys {
		if err := h.w[k].close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

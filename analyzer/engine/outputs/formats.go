package outputs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/parquet-go/parquet-go"
)

// Output formats (--format, comma-separated).
const (
	FormatJSONL      = "jsonl"
	FormatCSV        = "csv"
	FormatTimesketch = "timesketch"
	FormatParquet    = "parquet"
	FormatBodyfile   = "bodyfile"
)

// More output file names.
const (
	TimelineParquet = "timeline.parquet"
	BodyfileName    = "collection.bodyfile"
)

// Formats lists the formats in the order their files are written.
var Formats = []string{FormatJSONL, FormatCSV, FormatTimesketch, FormatECS, FormatParquet, FormatBodyfile}

// ParseFormats splits a --format value ("jsonl,csv,parquet") into known
// formats, each once, in Formats order.
func ParseFormats(v string) ([]string, error) {
	want := map[string]bool{}
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		ok := false
		for _, k := range Formats {
			ok = ok || k == f
		}
		if !ok {
			return nil, fmt.Errorf("unknown format %q (%s)", f, strings.Join(Formats, ", "))
		}
		want[f] = true
	}
	var out []string
	for _, k := range Formats {
		if want[k] {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		out = []string{FormatJSONL}
	}
	return out, nil
}

// multiRows writes each row to every timeline format asked for.
type multiRows []rowWriter

func (m multiRows) write(e *timeline.Event) error {
	for _, w := range m {
		if err := w.write(e); err != nil {
			return err
		}
	}
	return nil
}

func (m multiRows) close() error {
	var first error
	for _, w := range m {
		if err := w.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// openTimelines opens a writer for every row format in formats (the
// bodyfile is not a row format) and returns the files it will write.
// With partitionByHost the Parquet timeline is Hive-partitioned by case
// (caseOf a row's bundle id), host and day, and the Timesketch timeline is
// one file per host (formats_lake.go).
func openTimelines(dir string, formats []string, partitionByHost bool, caseOf func(bundleID string) string) (rowWriter, []string, error) {
	var m multiRows
	var names []string
	for _, f := range formats {
		if f == FormatBodyfile {
			continue
		}
		var w rowWriter
		var name string
		var err error
		switch f {
		case FormatParquet:
			if partitionByHost {
				w, name = newLakeParquet(dir, caseOf), TimelineParquet
			} else {
				w, name = &parquetRows{dir: dir, w: map[string]*parquetFile{}}, TimelineParquet
			}
		case FormatTimesketch:
			if partitionByHost {
				w, err = newHostTimesketch(dir)
				name = TimesketchDir
			} else {
				w, name, err = openRows(dir, f)
			}
		case FormatECS:
			w, name, err = openECS(dir)
		default:
			w, name, err = openRows(dir, f)
		}
		if err != nil {
			m.close()
			return nil, nil, err
		}
		m = append(m, w)
		names = append(names, filepath.Join(dir, name))
		if f == FormatECS {
			names = append(names, filepath.Join(dir, ECSTemplateOut))
		}
	}
	return m, names, nil
}

// CSVCellMax is the longest cell the CSV timeline writes: a spreadsheet
// holds 32,767 characters in a cell; a longer text is cut, with a marker
// saying where the whole text is.
const CSVCellMax = 32767

// csvCell cuts s to CSVCellMax characters with a marker naming the row's
// place in the JSON Lines timeline.
func csvCell(s string, e *timeline.Event) string {
	s = timeline.ValidUTF8(s)
	n := utf8.RuneCountInString(s)
	if n <= CSVCellMax {
		return s
	}
	marker := func(keep int) string {
		return fmt.Sprintf(" [cut: %d of %d characters shown; the whole text is in the JSON Lines timeline (--format jsonl), the row of %s line %d]", keep, n, timeline.ValidUTF8(e.SourceFile), e.SourceLine)
	}
	keep := max(CSVCellMax-utf8.RuneCountInString(marker(CSVCellMax)), 0)
	var b strings.Builder
	i := 0
	for _, r := range s {
		if i == keep {
			break
		}
		b.WriteRune(r)
		i++
	}
	b.WriteString(marker(keep))
	return b.String()
}

// ParquetRow is the Parquet timeline's row: the timeline fields in order,
// typed (a UTC TIMESTAMP in milliseconds, null when undated; source_line
// INT64; the rest strings).
type ParquetRow struct {
	TimestampUTC *time.Time `parquet:"timestamp_utc,optional,timestamp(millisecond)"`
	Host         string     `parquet:"host,dict"`
	User         string     `parquet:"user,dict"`
	Agent        string     `parquet:"agent,dict"`
	SessionID    string     `parquet:"session_id,dict"`
	ProjectPath  string     `parquet:"project_path,dict"`
	TurnType     string     `parquet:"turn_type,dict"`
	Model        string     `parquet:"model,dict"`
	ToolName     string     `parquet:"tool_name,dict"`
	ToolUseID    string     `parquet:"tool_use_id"`
	Text         string     `parquet:"text"`
	ToolInput    string     `parquet:"tool_input"`
	IsError      string     `parquet:"is_error,dict"`
	SourceFile   string     `parquet:"source_file,dict"`
	SourceLine   int64      `parquet:"source_line"`
	BundleID     string     `parquet:"bundle_id,dict"`
	Parser       string     `parquet:"parser,dict"`
	Secondary    string     `parquet:"secondary,dict"`
	TimeBasis    string     `parquet:"time_basis,dict"`
	RecordID     string     `parquet:"record_id"`
	ParentSessID string     `parquet:"parent_session_id,dict"`
	Verified     string     `parquet:"verified,dict"`
	Action       string     `parquet:"action,dict"`
	Recovered    string     `parquet:"recovered,dict"`
	Provenance   string     `parquet:"provenance"`
}

func parquetRowOf(e *timeline.Event) ParquetRow {
	r := e.ToRow()
	// Parquet strings are UTF-8: each invalid byte becomes U+FFFD, as in
	// the JSON Lines timeline.
	for _, f := range []*string{&r.Host, &r.User, &r.Agent, &r.SessionID, &r.ProjectPath, &r.TurnType, &r.Model, &r.ToolName, &r.ToolUseID, &r.Text,
		&r.ToolInput, &r.IsError, &r.SourceFile, &r.BundleID, &r.Parser, &r.Secondary, &r.TimeBasis, &r.RecordID, &r.ParentSessID, &r.Verified, &r.Action, &r.Recovered, &r.Provenance} {
		*f = timeline.ValidUTF8(*f)
	}
	p := ParquetRow{Host: r.Host, User: r.User, Agent: r.Agent, SessionID: r.SessionID, ProjectPath: r.ProjectPath,
		TurnType: r.TurnType, Model: r.Model, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Text: r.Text, ToolInput: r.ToolInput,
		IsError: r.IsError, SourceFile: r.SourceFile, SourceLine: r.SourceLine, BundleID: r.BundleID, Parser: r.Parser,
		Secondary: r.Secondary, TimeBasis: r.TimeBasis, RecordID: r.RecordID, ParentSessID: r.ParentSessID, Verified: r.Verified, Action: r.Action,
		Recovered: r.Recovered, Provenance: r.Provenance}
	if !e.Time.IsZero() {
		t := e.Time.UTC().Truncate(time.Millisecond)
		p.TimestampUTC = &t
	}
	return p
}

// parquetRows writes timeline.parquet (with --partition-by-host,
// lakeParquet writes the Hive-partitioned folder instead).
type parquetRows struct {
	dir string
	w   map[string]*parquetFile
}

type parquetFile struct {
	f *os.File
	w *parquet.GenericWriter[ParquetRow]
}

func (p *parquetRows) file(host string) (*parquetFile, error) {
	key := ""
	if pf := p.w[key]; pf != nil {
		return pf, nil
	}
	f, err := createOutput(filepath.Join(p.dir, TimelineParquet))
	if err != nil {
		return nil, err
	}
	pf := &parquetFile{f: f, w: parquet.NewGenericWriter[ParquetRow](f, parquetOptions()...)}
	p.w[key] = pf
	return pf, nil
}

// partitionName makes a host (or case) name safe as one path element, on
// Windows too: '/', '\\', '%', control characters and the characters
// Windows refuses in a name (: * ? " < > |) are %-escaped, which Hive
// readers decode.
func partitionName(h string) string {
	if h == "" {
		return "__empty__"
	}
	var b strings.Builder
	for _, r := range h {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f || r == '%' || strings.ContainsRune(`:*?"<>|`, r) {
			fmt.Fprintf(&b, "%%%02X", r)
			continue
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "." || s == ".." {
		s = "%2E" + s[1:]
	}
	return s
}

func (p *parquetRows) write(e *timeline.Event) error {
	pf, err := p.file(e.Host)
	if err != nil {
		return err
	}
	_, err = pf.w.Write([]ParquetRow{parquetRowOf(e)})
	return err
}

func (p *parquetRows) close() error {
	keys := make([]string, 0, len(p.w))
	for k := range p.w {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		// An empty timeline is still a valid (empty) Parquet file.
		if _, err := p.file(""); err != nil {
			return err
		}
		keys = []string{""}
	}
	var first error
	for _, k := range keys {
		pf := p.w[k]
		if err := pf.w.Close(); err != nil && first == nil {
			first = err
		}
		if err := pf.f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// bodyEntry is one manifest row (or walked file) for the bodyfile.
type bodyEntry struct {
	host string
	e    bundle.Entry
}

// writeBodyfile writes the mactime bodyfile of every collected file: one
// line "MD5|name|inode|mode|UID|GID|size|atime|mtime|ctime|crtime" per file,
// times in Unix seconds (0 when not recorded), the name "host:path", and
// the file's SHA-256 in the MD5 column (the manifest's hash; mactime and
// plaso read the column as text). Text fields are encoded as mactime
// decodes them (bodyField).
func writeBodyfile(path string, entries []bodyEntry) error {
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].host != entries[j].host {
			return entries[i].host < entries[j].host
		}
		return entries[i].e.Path < entries[j].e.Path
	})
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	secs := func(s string) int64 {
		if s == "" {
			return 0
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return 0
		}
		return t.Unix()
	}
	for _, be := range entries {
		e := &be.e
		if e.Record != "" && e.Record != bundle.RecordFile {
			continue
		}
		sum := e.SHA256
		if sum == "" {
			sum = "0"
		}
		fmt.Fprintf(w, "%s|%s|0|%s|%d|%d|%d|%d|%d|%d|%d\n", bodyField(sum), bodyField(be.host+":"+e.Path), bodyField(modeString(e)), e.UID, e.GID, e.Size,
			secs(e.ATime), secs(e.MTime), secs(e.CTime), secs(e.BTime))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// bodyField is a text field of a bodyfile line as Sleuth Kit's mactime
// reads it back: mactime splits the line on "|" and then decodes %XX
// (hex, either case) in each field (tm_split in tools/timeline/mactime.base,
// sleuthkit/sleuthkit eb9fac87bf9c2fcae9ae3e8623c9dca6fc260121; the same
// in Debian's 4.11.1). So "%", "|", every control character (a newline
// would end the line) and DEL are written as %XX; the text is first made
// valid UTF-8 as the JSON Lines timeline writes it (invalid bytes as
// U+FFFD), so mactime prints the name the timeline carries.
func bodyField(s string) string {
	s = timeline.ValidUTF8(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' || c == '|' || c < 0x20 || c == 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// modeString renders the manifest's mode as ls does (-rw-r--r--), or the
// mode as recorded when it is not an octal number.
func modeString(e *bundle.Entry) string {
	var m uint32
	if _, err := fmt.Sscanf(e.Mode, "%o", &m); err != nil || e.Mode == "" {
		if e.Mode == "" {
			return "0"
		}
		return e.Mode
	}
	fm := os.FileMode(m & 0o777)
	switch e.Type {
	case "dir":
		fm |= os.ModeDir
	case "symlink":
		fm |= os.ModeSymlink
	}
	return fm.String()
}

// createOutput creates an output file that must not exist yet (see the
// output folder rules in output.md): O_CREAT|O_EXCL|O_NOFOLLOW, so a file
// or a link planted in the folder while the run goes is refused, never
// truncated or written through.
func createOutput(path string) (*os.File, error) {
	return bundle.CreateNew(path, 0o644)
}

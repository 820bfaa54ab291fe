// Package surface writes the control-surface listing of a timeline folder:
// surface.jsonl (one entry a line) and surface.md (a table an examiner
// reads), from the "control surface: ..." rows the surface parsers
// (analyzer/parsers/surface) wrote into timeline.jsonl. It is what
// `doubleagent surface` writes; the format is in analyzer/docs/surface.md.
package surface

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/mdsafe"
	ps "github.com/doubleagent/doubleagent/analyzer/parsers/surface"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// Entry is one line of surface.jsonl: the entry as the parser read it,
// where it was collected, and its row in timeline.jsonl.
type Entry struct {
	Host     string `json:"host"`
	User     string `json:"user"`
	BundleID string `json:"bundle_id"`
	Verified string `json:"verified"` // the row's: "true", "false", "" for a loose input
	ps.Item
	// ATime, CTime and BTime are the access, inode change and birth
	// times: from the manifest for a bundle or an extracted collection,
	// from the file's stat for a loose tree ("" when not recorded);
	// TimesFrom says which ("manifest", "stat", "").
	ATime        string `json:"atime"`
	CTime        string `json:"ctime"`
	BTime        string `json:"btime"`
	TimesFrom    string `json:"times_from"`
	TimelineLine int64  `json:"timeline_line"`
}

// Summary is what Write wrote.
type Summary struct {
	Entries []Entry
	Files   int // distinct files
	ByKind  map[string]int
	Paths   []string // surface.jsonl, surface.md
}

// Write reads dir/timeline.jsonl and writes dir/surface.jsonl and
// dir/surface.md.
func Write(dir string) (*Summary, error) { return WriteLimits(dir, nil) }

// WriteLimits is Write reading the bundles again (for their manifests'
// MACB times) with limits, whose Identities open encrypted bundles (nil:
// analyze.DefaultLimits()).
func WriteLimits(dir string, limits *bundle.Options) (*Summary, error) {
	src := filepath.Join(dir, analyze.TimelineJSONL)
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sum := &Summary{ByKind: map[string]int{}}
	files := map[string]bool{}
	br := bufio.NewReaderSize(f, 1<<16)
	var line int64
	for {
		b, rerr := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			line++
			var r timeline.Row
			if err := json.Unmarshal(b, &r); err != nil {
				return nil, fmt.Errorf("%s line %d: %w", src, line, err)
			}
			if r.TurnType == string(timeline.System) && strings.HasPrefix(r.Text, ps.Prefix) && strings.HasSuffix(r.Parser, "/surface") {
				e := Entry{Host: r.Host, User: r.User, BundleID: r.BundleID, Verified: r.Verified, TimelineLine: line}
				if err := json.Unmarshal([]byte(r.ToolInput), &e.Item); err != nil {
					return nil, fmt.Errorf("%s line %d: tool_input: %w", src, line, err)
				}
				sum.Entries = append(sum.Entries, e)
				sum.ByKind[e.Kind]++
				files[e.Host+"\x00"+e.File] = true
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, rerr
		}
	}
	sum.Files = len(files)
	want := map[string]bool{}
	for i := range sum.Entries {
		want[sum.Entries[i].BundleID+"\x00"+sum.Entries[i].File] = true
	}
	times := fileTimes(dir, want, limits)
	for i := range sum.Entries {
		e := &sum.Entries[i]
		t := times[e.BundleID+"\x00"+e.File]
		e.ATime, e.CTime, e.BTime, e.TimesFrom = t.a, t.c, t.b, t.from
	}
	sort.SliceStable(sum.Entries, func(i, j int) bool { return less(&sum.Entries[i], &sum.Entries[j]) })
	jp, mp := filepath.Join(dir, analyze.SurfaceJSONL), filepath.Join(dir, analyze.SurfaceMD)
	if err := writeJSONL(jp, sum.Entries); err != nil {
		return nil, err
	}
	if err := writeNew(mp, markdown(sum)); err != nil {
		return nil, err
	}
	sum.Paths = []string{jp, mp}
	return sum, nil
}

// kindRank orders kinds as the docs list them (what runs first).
func kindRank(k string) int {
	for i, x := range ps.Kinds {
		if x == k {
			return i
		}
	}
	return len(ps.Kinds)
}

func less(a, b *Entry) bool {
	for _, p := range [][2]string{{a.Host, b.Host}, {a.User, b.User}, {a.Agent, b.Agent}} {
		if p[0] != p[1] {
			return p[0] < p[1]
		}
	}
	if ra, rb := kindRank(a.Kind), kindRank(b.Kind); ra != rb {
		return ra < rb
	}
	for _, p := range [][2]string{{a.Scope, b.Scope}, {a.Project, b.Project}, {a.File, b.File}} {
		if p[0] != p[1] {
			return p[0] < p[1]
		}
	}
	return a.Line < b.Line
}

func writeJSONL(p string, es []Entry) error {
	f, err := bundle.CreateNew(p, 0o644)
	if err != nil {
		return err
	}
	w := timeline.NewWriter(f)
	for i := range es {
		if err := w.Write(&es[i]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeNew writes a file that must not exist yet (O_CREAT|O_EXCL|
// O_NOFOLLOW, as every output): a planted file or link is refused.
func writeNew(p string, b []byte) error {
	f, err := bundle.CreateNew(p, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fit(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

// cell is evidence in a table cell: one line, cut to n characters, and
// literal under any CommonMark renderer (mdsafe.Text).
// An empty field is shown as "-".
func cell(s string, n int) string {
	if s == "" {
		return "-"
	}
	return mdsafe.Text(fit(s, n))
}

func markdown(sum *Summary) []byte {
	var b bytes.Buffer
	b.WriteString("# Agent control surface\n\n")
	b.WriteString("Every hook, helper command, MCP server, skill, custom agent, slash command, plugin, rules file and backup copy the agents on these hosts would load or run, per user and per project (analyzer/docs/surface.md). ")
	b.WriteString("Environment and header values are never shown, only their names. The whole entry, with the text of skills and rules files, is in surface.jsonl; the row in timeline.jsonl is its `timeline_line`.\n\n")
	var kinds []string
	for k, n := range sum.ByKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", mdsafe.Text(strings.ReplaceAll(k, "_", " ")), n))
	}
	sort.Strings(kinds)
	fmt.Fprintf(&b, "%d entries from %d files: %s.\n", len(sum.Entries), sum.Files, strings.Join(kinds, ", "))
	cur := ""
	for i := range sum.Entries {
		e := &sum.Entries[i]
		if k := e.Host + "\x00" + e.User; k != cur {
			cur = k
			fmt.Fprintf(&b, "\n## %s@%s\n\n", cell(e.User, 80), cell(e.Host, 80))
			b.WriteString("| agent | kind | scope | project | name | runs or says | file:line | sha256 | mtime | btime | verified |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
		}
		name := e.Name
		if e.Kind == ps.KindHook {
			name = e.Event
			if e.Matcher != "" {
				name += "[" + e.Matcher + "]"
			}
		}
		sha := e.SHA256
		if len(sha) > 12 {
			sha = sha[:12] + "…"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s:%d | %s | %s | %s | %s |\n", cell(e.Agent, 40), cell(strings.ReplaceAll(e.Kind, "_", " "), 20), cell(e.Scope, 20),
			cell(e.Project, 60), cell(name, 60), cell(ps.Detail(&e.Item), 160), cell(e.File, 120), e.Line, cell(sha, 16), cell(e.MTime, 40), cell(e.BTime, 40), cell(e.Verified, 8))
	}
	if len(sum.Entries) == 0 {
		b.WriteString("\nNo control-surface entry was found.\n")
	}
	return b.Bytes()
}

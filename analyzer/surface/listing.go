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
	"time"

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
	// Provenance says who wrote the entry's file: AgentTurn when a tool
	// call of the timeline wrote it (WrittenBy names each), NoAgentTurn
	// otherwise (an installer, a clone, a package, a person).
	Provenance string   `json:"provenance"`
	WrittenBy  []Writer `json:"written_by"`
	// FirstSeen and LastSeen are the first and last time the entry was
	// seen: the file times (UTC) of every copy holding it (the file and
	// its backups, in every input) and the times of the turns that wrote
	// it ("" when none is dated).
	FirstSeen string `json:"first_seen"`
	LastSeen  string `json:"last_seen"`
	seen      string // this copy's row time
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
	tr := NewTracker()
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
			tr.Observe(line, &r)
			if r.TurnType == string(timeline.System) && strings.HasPrefix(r.Text, ps.Prefix) && strings.HasSuffix(r.Parser, "/surface") {
				e := Entry{Host: r.Host, User: r.User, BundleID: r.BundleID, Verified: r.Verified, TimelineLine: line, seen: r.TimestampUTC}
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
	provenance(sum.Entries, tr)
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
			b.WriteString("| agent | kind | scope | project | name | runs or says | file:line | written by | first seen | last seen | sha256 | mtime | btime | verified |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
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
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s:%d | %s | %s | %s | %s | %s | %s | %s |\n", cell(e.Agent, 40), cell(strings.ReplaceAll(e.Kind, "_", " "), 20), cell(e.Scope, 20),
			cell(e.Project, 60), cell(name, 60), cell(ps.Detail(&e.Item), 160), cell(e.File, 120), e.Line, cell(writtenBy(e), 200), cell(e.FirstSeen, 30), cell(e.LastSeen, 30),
			cell(sha, 16), cell(e.MTime, 40), cell(e.BTime, 40), cell(e.Verified, 8))
	}
	changes(&b, sum.Entries)
	if len(sum.Entries) == 0 {
		b.WriteString("\nNo control-surface entry was found.\n")
	}
	return b.Bytes()
}

// identity is what makes two rows the same entry: the same hook, server
// or file of one user, read from the file or from a backup copy of it.
func identity(e *Entry) string {
	file := e.File
	if e.BackupOf != "" {
		file = e.BackupOf
	}
	return strings.Join([]string{e.Host, e.User, e.Agent, e.Kind, e.Scope, e.Project, e.Name, e.Event, e.Matcher, file}, "\x00")
}

// provenance fills each entry's Provenance, WrittenBy, FirstSeen and
// LastSeen. A backup copy's entries are attributed by the file they copy
// as well as by the copy itself.
func provenance(es []Entry, tr *Tracker) {
	first, last := map[string]string{}, map[string]string{}
	see := func(k, t string) {
		if t == "" {
			return
		}
		if f, ok := first[k]; !ok || t < f {
			first[k] = t
		}
		if t > last[k] {
			last[k] = t
		}
	}
	for i := range es {
		e := &es[i]
		e.WrittenBy = tr.WrittenBy(e.Host, e.User, e.File)
		if e.BackupOf != "" && slash(e.BackupOf) != slash(e.File) {
			e.WrittenBy = append(e.WrittenBy, tr.WrittenBy(e.Host, e.User, e.BackupOf)...)
			sort.SliceStable(e.WrittenBy, func(a, b int) bool { return e.WrittenBy[a].TimelineLine < e.WrittenBy[b].TimelineLine })
		}
		e.Provenance = NoAgentTurn
		if len(e.WrittenBy) > 0 {
			e.Provenance = AgentTurn
		} else {
			e.WrittenBy = []Writer{}
		}
		k := identity(e)
		see(k, e.seen)
		for _, w := range e.WrittenBy {
			see(k, w.TimestampUTC)
		}
	}
	for i := range es {
		k := identity(&es[i])
		es[i].FirstSeen, es[i].LastSeen = first[k], last[k]
	}
}

// writtenBy is the "written by" cell: each session and timeline row that
// wrote the file, or NoAgentTurn.
func writtenBy(e *Entry) string {
	if len(e.WrittenBy) == 0 {
		return NoAgentTurn
	}
	var p []string
	for _, w := range e.WrittenBy {
		p = append(p, fmt.Sprintf("%s session %s row %d (%s)", w.Agent, w.SessionID, w.TimelineLine, w.Action))
	}
	return strings.Join(p, "; ")
}

// Change is one change of the control surface: a file time of a file
// holding entries (Writers empty; By says whether agent turns wrote it),
// or an agent turn that wrote one (Writers holds it).
type Change struct {
	Time    string // UTC, "" when not recorded
	Who     string // user@host
	Host    string
	User    string
	What    string // "file time (mtime)", or the call's action and text
	By      string // NoAgentTurn, "see the writes", or "AGENT session S row N"
	File    string
	Writers []Writer // the turn, for a write
}

// Changes lists the control surface's changes in time order (undated
// last): each file time of a file holding entries, and each agent turn
// that wrote one. surface.md's Changes section and the report's "Control
// surface changes" are this list.
func Changes(es []Entry) []Change {
	var cs []Change
	seen := map[string]bool{}
	for i := range es {
		e := &es[i]
		who := e.User + "@" + e.Host
		t := e.seen
		if t == "" && e.MTime != "" {
			// read back from surface.jsonl: the row's time is the file's
			// modification time, at the timeline's precision
			if mt, err := time.Parse(time.RFC3339Nano, e.MTime); err == nil {
				t = timeline.FormatTime(mt)
			}
		}
		if k := "f\x00" + who + "\x00" + e.File + "\x00" + t; !seen[k] {
			seen[k] = true
			by := NoAgentTurn
			if len(e.WrittenBy) > 0 {
				by = "see the writes"
			}
			cs = append(cs, Change{Time: t, Who: who, Host: e.Host, User: e.User, What: "file time (mtime)", By: by, File: e.File})
		}
		for _, w := range e.WrittenBy {
			if k := fmt.Sprintf("w\x00%s\x00%d\x00%s", who, w.TimelineLine, e.File); !seen[k] {
				seen[k] = true
				cs = append(cs, Change{Time: w.TimestampUTC, Who: who, Host: e.Host, User: e.User, What: w.Action + ": " + w.Text, By: fmt.Sprintf("%s session %s row %d", w.Agent, w.SessionID, w.TimelineLine),
					File: e.File, Writers: []Writer{w}})
			}
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, c := cs[i], cs[j]
		if a.Time != c.Time {
			if a.Time == "" || c.Time == "" {
				return c.Time == ""
			}
			return a.Time < c.Time
		}
		if a.Who != c.Who {
			return a.Who < c.Who
		}
		return a.File < c.File
	})
	return cs
}

// changes writes the Changes section of surface.md.
func changes(b *bytes.Buffer, es []Entry) {
	cs := Changes(es)
	if len(cs) == 0 {
		return
	}
	b.WriteString("\n## Changes\n\nEvery file time of a file holding an entry and every agent turn that wrote one, oldest first (undated last). " +
		"A file no agent turn wrote came from elsewhere: an installer, a clone, a package, a person.\n\n")
	b.WriteString("| time (UTC) | user@host | what | by | file |\n|---|---|---|---|---|\n")
	for _, c := range cs {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", cell(c.Time, 30), cell(c.Who, 80), cell(c.What, 160), cell(c.By, 120), cell(c.File, 120))
	}
}

// Read reads a surface.jsonl.
func Read(p string) ([]Entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	br := bufio.NewReaderSize(f, 1<<16)
	var n int
	for {
		b, rerr := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			n++
			var e Entry
			if err := json.Unmarshal(b, &e); err != nil {
				return nil, fmt.Errorf("%s line %d: %w", p, n, err)
			}
			out = append(out, e)
		}
		if rerr == io.EOF {
			return out, nil
		}
		if rerr != nil {
			return nil, rerr
		}
	}
}

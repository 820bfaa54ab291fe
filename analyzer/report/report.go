// Package report renders a timeline output folder (timeline.jsonl,
// sessions.jsonl, inventory.json, problems.jsonl, findings.jsonl, run.json) as a case
// report an examiner reads: one self-contained HTML file (no network, no
// script, no external asset: it works from a USB stick) and the same in
// Markdown. Sessions read as conversations: typed prompts, replies, each
// tool call with its full arguments and its result (long text folded),
// permission decisions and mode changes, model switches, subagents nested
// under their parent, recovered and secondary rows marked, each row linked
// to its source file and line.
//
// Rows are regrouped by session through the timeline's external sorter, so
// a large timeline needs disk, not memory.
package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"unsafe"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/findings"
	"github.com/doubleagent/doubleagent/analyzer/surface"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// File names the report writes into the output folder.
const (
	HTMLName     = analyze.ReportHTML
	MarkdownName = analyze.ReportMD
)

// Limits of what one row shows before folding or cutting; the whole text
// is always in timeline.jsonl.
const (
	foldChars = 600     // longer text is folded (<details>) in HTML
	foldLines = 12      // so is text of more lines
	maxChars  = 200_000 // longer text is cut, with a note
	// harnessChars is where the folded system rows of a session (injected
	// context, harness records: the same long blocks in every session) are
	// cut, with a note naming their timeline.jsonl line
	harnessChars = 400
	// reportRows is about how many rows report.html holds, so that a case
	// of a thousand sessions stays near 10 MB (rowCap); budgetChars is
	// where each row's text is cut once that budget is in force.
	reportRows  = 15_000
	budgetChars = 4_000
	// reportBytes is report.html's size budget (Options.Bytes): the 10 MB
	// target with room for the estimates (tailBytes, the index's notes,
	// the source files' rows).
	reportBytes = 9_500_000
	tailBytes   = 2_000
)

// rowCap is how many rows each session shows so that about budget rows
// are shown in all: 0 when every row fits; otherwise the largest c with
// the sum over sessions of min(rows, c) within budget (each session keeps
// its first c rows, the small ones whole), at least 5; 0 for one session.
func rowCap(rows []int, budget int) int {
	total := 0
	for _, n := range rows {
		total += n
	}
	if total <= budget || len(rows) == 1 {
		return 0 // one session (report --session) is always shown whole
	}
	sorted := append([]int(nil), rows...)
	sort.Ints(sorted)
	used, c := 0, 0
	for i, n := range sorted {
		left := len(sorted) - i
		if used+n*left > budget {
			c = (budget - used) / left
			break
		}
		used += n
	}
	return max(c, 5)
}

// Finding is one rule match to list at the top of the report: a line of
// findings.jsonl (analyzer/findings), read from the folder unless
// Options.Findings gives them.
type Finding struct {
	RuleID, Title, Level, Class string
	Source                      string // the rule file, or the built-in detector
	Host, User, Agent           string
	SessionID, Time, Last       string // Time: the first matched row's time
	Rows                        int    // rows matched
	Matched                     []FindingRow
	// Secret is a secret-exposure finding's secret (fingerprint, where it
	// was seen, where it was sent), nil on other findings: the report's
	// "Secrets seen" section lists these.
	Secret *findings.SecretExposure
}

// FindingRow is one matched row, linked to where the report shows it.
type FindingRow struct {
	Line     int64 // timeline.jsonl line
	Time     string
	TurnType string
	Text     string
}

// Options configure Write.
type Options struct {
	Dir string // the timeline output folder, read and written
	// Findings are rendered at the top; nil reads findings.jsonl from Dir
	// when it is there.
	Findings []Finding
	// Surface is the control surface whose changes the report lists;
	// nil reads surface.jsonl from Dir when it is there (doubleagent
	// report and surface write it).
	Surface []surface.Entry
	TempDir string // for the sorter's runs (default os.TempDir())
	// Case and Examiner, when given (report --case, --examiner), are the
	// report's; the values the bundles recorded are shown beside them.
	Case, Examiner string
	// Rows is about how many rows the report shows in all (0: reportRows,
	// near 10 MB of report.html); past it each session shows its first
	// rows (rowCap).
	Rows int
	// Bytes is report.html's size budget (0: reportBytes). Once the
	// sessions written would pass it, a session no finding or control
	// surface entry names is not written: the session index lists it with
	// its rows and the command that writes it whole; one they name is
	// written with only the rows they name.
	Bytes int64
}

// mustReserve is what a session with n named rows takes at least in
// report.html when only those rows are written (its heading, meta line and
// note, each row with its source file's row in the tail).
func mustReserve(n int) int64 { return 1500 + 1500*int64(n) }

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// countBytes is how many bytes fn writes to its HTML writer.
func countBytes(fn func(h, m *bufio.Writer)) int64 {
	c := &counter{w: io.Discard}
	h, m := bufio.NewWriter(c), bufio.NewWriter(io.Discard)
	fn(h, m)
	_ = h.Flush()
	return c.n
}

// Write reads the timeline outputs in o.Dir and writes report.html and
// report.md beside them, returning their paths.
func Write(o Options) ([]string, error) {
	in, err := load(o.Dir)
	if err != nil {
		return nil, err
	}
	if o.Findings != nil {
		in.findings = o.Findings
	} else if in.findings, err = loadFindings(o.Dir); err != nil {
		return nil, err
	}
	if o.Surface != nil {
		in.surface = o.Surface
	} else if in.surface, err = surface.Read(filepath.Join(o.Dir, analyze.SurfaceJSONL)); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("report: %w", err)
		}
		in.surface = nil
	}
	in.caseID, in.examiner = o.Case, o.Examiner
	in.matched, in.linked = map[int64]bool{}, map[int64]bool{}
	for _, f := range in.findings {
		for _, m := range f.Matched {
			in.matched[m.Line] = true
		}
	}
	for i := range in.surface {
		e := &in.surface[i]
		in.linked[e.TimelineLine] = true
		for _, w := range e.WrittenBy {
			in.linked[w.TimelineLine] = true
		}
	}
	tmp, err := os.MkdirTemp(o.TempDir, "doubleagent-report-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	sorter := timeline.NewSorterOf(tmp, 64<<20, in.less, rowSize)
	in.must = map[timeline.SessionKey]int{}
	if err := in.eachRow(filepath.Join(o.Dir, analyze.TimelineJSONL), func(r *keyed) error {
		in.noteRecovered(&r.Row)
		if in.matched[r.Line] || in.linked[r.Line] {
			// a row a finding or the control surface links to: its
			// session is always written
			in.must[timeline.SessionKey{Host: r.Row.Host, User: r.Row.User, Agent: r.Row.Agent, SessionID: r.Row.SessionID}]++
		}
		return sorter.Add(*r)
	}); err != nil {
		return nil, err
	}
	counts := make([]int, 0, len(in.sessions))
	for _, s := range in.sessions {
		counts = append(counts, s.Events)
	}
	budget := o.Rows
	if budget <= 0 {
		budget = reportRows
	}
	r := &renderer{in: in, sources: map[srcKey]int{}, skipped: map[timeline.SessionKey]*skippedSession{}, released: map[timeline.SessionKey]bool{}}
	r.capRows = rowCap(counts, budget)
	// The head (overview, index, findings...) is written before the
	// sessions but sized first: what it takes of report.html's budget is
	// what the sessions cannot have (bodyBudget).
	bytesBudget := o.Bytes
	if bytesBudget <= 0 {
		bytesBudget = reportBytes
	}
	headBytes := countBytes(func(h, m *bufio.Writer) { r.h, r.m = h, m; r.head() })
	r.bodyBudget = bytesBudget - headBytes - tailBytes
	// What the sessions that are always written will take at least (their
	// heading and the rows named) is kept for them: each gives its share
	// back as it starts (startSession).
	for _, n := range in.must {
		r.bodyBudget -= mustReserve(n)
	}
	// The sessions are written to a spool, then copied after the head,
	// which names the sessions left out (the index links to them).
	bh, err := os.Create(filepath.Join(tmp, "body.html"))
	if err != nil {
		return nil, err
	}
	defer bh.Close()
	bm, err := os.Create(filepath.Join(tmp, "body.md"))
	if err != nil {
		return nil, err
	}
	defer bm.Close()
	r.bodyCount = &counter{w: bh}
	r.h, r.m = bufio.NewWriterSize(r.bodyCount, 1<<16), bufio.NewWriterSize(bm, 1<<16)
	var cur *sessionGroup
	if err := sorter.Each(func(k *keyed) error {
		// a session is its host, user, agent and id: two hosts (or users,
		// or agents) with one session id are two sessions
		if cur == nil || cur.key != k.Session || cur.root != k.Root || cur.host != k.Row.Host || cur.user != k.Row.User || cur.agent != k.Row.Agent {
			if cur != nil {
				r.endSession(cur)
			}
			cur = r.startSession(k)
		}
		r.row(cur, &k.Row, k.Line)
		return nil
	}); err != nil {
		return nil, err
	}
	if cur != nil {
		r.endSession(cur)
	}
	if err := r.h.Flush(); err != nil {
		return nil, err
	}
	if err := r.m.Flush(); err != nil {
		return nil, err
	}
	r.bodyCount = nil
	hp, mp := filepath.Join(o.Dir, HTMLName), filepath.Join(o.Dir, MarkdownName)
	hf, err := create(hp)
	if err != nil {
		return nil, err
	}
	defer hf.Close()
	mf, err := create(mp)
	if err != nil {
		return nil, err
	}
	defer mf.Close()
	hw, mw := bufio.NewWriterSize(hf, 1<<16), bufio.NewWriterSize(mf, 1<<16)
	r.h, r.m = hw, mw
	r.head()
	for _, f := range []*os.File{bh, bm} {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	if _, err := io.Copy(hw, bh); err != nil {
		return nil, err
	}
	if _, err := io.Copy(mw, bm); err != nil {
		return nil, err
	}
	r.tail()
	if err := hw.Flush(); err != nil {
		return nil, err
	}
	if err := mw.Flush(); err != nil {
		return nil, err
	}
	if err := hf.Close(); err != nil {
		return nil, err
	}
	if err := mf.Close(); err != nil {
		return nil, err
	}
	return []string{hp, mp}, nil
}

// create creates a report file that must not exist yet, as every output
// is (O_CREAT|O_EXCL|O_NOFOLLOW: a file or link planted in the folder is
// refused, never truncated or written through).
func create(p string) (*os.File, error) {
	return bundle.CreateNew(p, 0o644)
}

// input is what the report reads besides the rows.
type input struct {
	run      analyze.RunRecord
	inv      analyze.Inventory
	sessions map[timeline.SessionKey]timeline.Session
	order    map[timeline.SessionKey]int // session rank by first time
	problems []analyze.Problem
	findings []Finding
	matched  map[int64]bool // timeline.jsonl lines some finding names
	linked   map[int64]bool // lines the control surface section names
	// must are the sessions holding a line of matched or linked: always
	// written, whatever the size budget
	must    map[timeline.SessionKey]int // how many of its rows are named
	surface []surface.Entry
	// recovered is what the rows of deleted sessions say (noteRecovered).
	recovered map[timeline.SessionKey]*recoveredSeen
	// caseID and examiner are the report's own (Options), or "".
	caseID, examiner string
}

// loadFindings reads findings.jsonl when the folder holds one.
func loadFindings(dir string) ([]Finding, error) {
	fs, err := findings.Read(filepath.Join(dir, findings.FileName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var out []Finding
	for _, f := range fs {
		rf := Finding{RuleID: f.RuleID, Title: f.RuleTitle, Source: f.RuleSource, Level: f.Level, Class: f.Class, Host: f.Host, User: f.User, Agent: f.Agent,
			SessionID: f.SessionID, Time: f.FirstUTC, Last: f.LastUTC, Rows: f.RowCount, Secret: f.Secret}
		for _, r := range f.Rows {
			rf.Matched = append(rf.Matched, FindingRow{Line: r.Line, Time: r.TimestampUTC, TurnType: r.TurnType, Text: r.Text})
		}
		out = append(out, rf)
	}
	return out, nil
}

func load(dir string) (*input, error) {
	in := &input{sessions: map[timeline.SessionKey]timeline.Session{}, order: map[timeline.SessionKey]int{}}
	if b, err := os.ReadFile(filepath.Join(dir, analyze.RunJSON)); err == nil {
		_ = json.Unmarshal(b, &in.run)
	}
	b, err := os.ReadFile(filepath.Join(dir, analyze.InventoryJSON))
	if err != nil {
		return nil, fmt.Errorf("report: %w (run timeline first)", err)
	}
	if err := json.Unmarshal(b, &in.inv); err != nil {
		return nil, fmt.Errorf("report: %s: %w", analyze.InventoryJSON, err)
	}
	n := 0
	if err := eachJSON(filepath.Join(dir, analyze.SessionsJSONL), func(b []byte) error {
		var s timeline.Session
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		k := timeline.SessionKey{Host: s.Host, User: s.User, Agent: s.Agent, SessionID: s.SessionID}
		in.sessions[k] = s
		in.order[k] = n // sessions.jsonl is sorted by first time
		n++
		return nil
	}); err != nil {
		return nil, err
	}
	if err := eachJSON(filepath.Join(dir, analyze.ProblemsJSONL), func(b []byte) error {
		var p analyze.Problem
		if err := json.Unmarshal(b, &p); err != nil {
			return err
		}
		in.problems = append(in.problems, p)
		return nil
	}); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return in, nil
}

func eachJSON(path string, fn func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// keyed is a timeline row with what orders it in the report: its
// session's root (the parent of a subagent, else itself), its session, and
// its line in timeline.jsonl.
type keyed struct {
	Row     timeline.Row
	Root    string // root session id
	Session string // its own session id
	RootOrd int    // the root session's rank by first time
	SessOrd int    // the session's rank by first time
	Child   bool   // a subagent or fork of the root
	Line    int64  // line in timeline.jsonl
}

func (in *input) less(a, b *keyed) bool {
	ra, rb := a.Row, b.Row
	if ra.Host != rb.Host {
		return ra.Host < rb.Host
	}
	if ra.User != rb.User {
		return ra.User < rb.User
	}
	if a.RootOrd != b.RootOrd {
		return a.RootOrd < b.RootOrd
	}
	if ra.Agent != rb.Agent {
		return ra.Agent < rb.Agent
	}
	if a.Root != b.Root {
		return a.Root < b.Root
	}
	if a.Child != b.Child {
		return !a.Child
	}
	if a.SessOrd != b.SessOrd {
		return a.SessOrd < b.SessOrd
	}
	if a.Session != b.Session {
		return a.Session < b.Session
	}
	return a.Line < b.Line
}

func rowSize(k *keyed) int64 {
	r := &k.Row
	return int64(unsafe.Sizeof(*k)) + int64(len(r.Text)+len(r.ToolInput)+len(r.SourceFile)+len(r.ProjectPath)+len(r.SessionID)+
		len(r.Host)+len(r.User)+len(r.Agent)+len(r.Model)+len(r.ToolName)+len(r.ToolUseID)+len(r.BundleID)+len(r.Parser)+len(r.RecordID)+
		len(r.Recovered)+len(r.Provenance)+len(k.Root)+len(k.Session))
}

// eachRow reads timeline.jsonl, giving each row its report keys.
func (in *input) eachRow(path string, fn func(*keyed) error) error {
	var n int64
	return eachJSON(path, func(b []byte) error {
		n++
		var k keyed
		if err := json.Unmarshal(b, &k.Row); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
		r := &k.Row
		k.Line, k.Session, k.Root = n, r.SessionID, r.SessionID
		own := timeline.SessionKey{Host: r.Host, User: r.User, Agent: r.Agent, SessionID: r.SessionID}
		parent := r.ParentSessID
		if parent == "" {
			parent = in.sessions[own].ParentSessionID
		}
		if parent != "" && parent != r.SessionID {
			k.Root, k.Child = parent, true
		}
		k.SessOrd = in.rank(own)
		k.RootOrd = in.rank(timeline.SessionKey{Host: r.Host, User: r.User, Agent: r.Agent, SessionID: k.Root})
		return fn(&k)
	})
}

// rank is a session's place by first time; rows without a session, and
// sessions not in sessions.jsonl, come after those that are.
func (in *input) rank(k timeline.SessionKey) int {
	if n, ok := in.order[k]; ok {
		return n
	}
	return len(in.order)
}

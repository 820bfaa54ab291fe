// Package findings runs DoubleAgent's rules over a written timeline and
// writes findings.jsonl beside it: one line per rule, host, user, agent
// and session whose rows matched, naming the matched rows by their
// timeline.jsonl line and record id.
//
// It consumes the row stream (the engine knows nothing of rules): a
// Runner is handed every row the engine's output pass writes, in timeline
// order, on a goroutine of its own (analyze.Options.Rows), whatever the
// formats written; Run does the same over a timeline.jsonl written
// earlier. The Sigma rules of analyzer/rules (and an examiner's own, with
// --rules) are evaluated row by row with analyzer/sigma, and the built-in
// detectors that Sigma cannot express (prompt-injection traces,
// detect.go) read each session's rows in timeline order. It streams:
// memory holds the findings and each session's pending fetched text,
// never the timeline.
//
// Same timeline, same rules: byte-identical findings.jsonl.
package findings

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/rules"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// FileName is the findings file in the output folder.
const FileName = analyze.FindingsJSONL

// Limits.
const (
	MaxRowsListed = 1000 // rows named in one finding; RowCount says how many matched
	excerptChars  = 300  // characters of a matched row's text in the finding
)

// Finding is one line of findings.jsonl.
type Finding struct {
	RuleID     string   `json:"rule_id"`
	RuleTitle  string   `json:"rule_title"`
	Level      string   `json:"level"`
	Class      string   `json:"class"`
	Engine     string   `json:"engine"`      // "sigma" or "builtin"
	RuleSource string   `json:"rule_source"` // the rule file, or the detector
	Host       string   `json:"host"`
	User       string   `json:"user"`
	Agent      string   `json:"agent"`
	SessionID  string   `json:"session_id"`
	FirstUTC   string   `json:"first_utc"` // first dated matched row ("" when none is dated)
	LastUTC    string   `json:"last_utc"`
	RowCount   int      `json:"row_count"`
	RowsCut    bool     `json:"rows_cut"` // more rows matched than are listed
	Rows       []RowRef `json:"rows"`
	// Secret is a secret-exposure finding's secret (its fingerprint and
	// everywhere it appeared), absent on other findings.
	Secret *SecretExposure `json:"secret,omitempty"`
}

// RowRef names one matched row.
type RowRef struct {
	Line         int64  `json:"line"` // 1-based line in timeline.jsonl
	RecordID     string `json:"record_id"`
	TimestampUTC string `json:"timestamp_utc"`
	TurnType     string `json:"turn_type"`
	Action       string `json:"action"`
	ToolName     string `json:"tool_name"`
	SourceFile   string `json:"source_file"`
	SourceLine   int64  `json:"source_line"`
	Text         string `json:"text"` // the row's text, cut to 300 characters
	// HiddenText is the decoded invisible Unicode of the row's tool_input
	// (else its text; see HiddenText), present only on a row that holds
	// some.
	HiddenText string `json:"hidden_text,omitempty"`
	// Note says why a detector that decides at the end (a Finisher)
	// matched, on the first row of its match: who wrote the file, what
	// was approved, how the session started.
	Note string `json:"note,omitempty"`
}

// Detector is a built-in rule: it sees every row in timeline order and
// reports matches itself.
type Detector interface {
	ID() string
	Title() string
	Level() string
	Class() string
	// Row sees one row (its timeline.jsonl line) and reports the rows of
	// any match with report; a match may name rows seen earlier.
	Row(line int64, r *timeline.Row, report func(rows ...Ref))
}

// Ref is a row a detector reports: its line and the row.
type Ref struct {
	Line int64
	Row  *timeline.Row
}

// kept is the Ref of a row a detector holds until Finish: a copy of the
// fields a finding lists (ref) and that name its session, in strings of
// their own, so what stays reachable is that row's text and no more: not
// the row (a decoded row's strings share one allocation with its
// tool_input and the rest of its record). The listing itself (a
// redaction of the text) is made only for a row that is reported.
func kept(line int64, r *timeline.Row) Ref {
	c := &timeline.Row{Host: strings.Clone(r.Host), User: strings.Clone(r.User), Agent: strings.Clone(r.Agent), SessionID: strings.Clone(r.SessionID),
		RecordID: strings.Clone(r.RecordID), TimestampUTC: strings.Clone(r.TimestampUTC), TurnType: strings.Clone(r.TurnType), Action: strings.Clone(r.Action),
		ToolName: strings.Clone(r.ToolName), SourceFile: strings.Clone(r.SourceFile), SourceLine: r.SourceLine, Text: strings.Clone(r.Text)}
	c.ToolInput = strings.Clone(r.ToolInput) // rowHidden reads it first
	return Ref{Line: line, Row: c}
}

// keptRow is the smaller form of kept for state held per session, most
// of it for sessions that never match (the headless detector holds each
// session's entry point and first prompt): the fields a finding lists, in
// strings of their own, without the row's other fields or its session's
// names, which the detector's key holds.
type keptRow struct {
	line                                                                  int64
	recordID, ts, turnType, action, toolName, sourceFile, text, toolInput string
	sourceLine                                                            int64
}

func keep(line int64, r *timeline.Row) *keptRow {
	return &keptRow{line: line, recordID: strings.Clone(r.RecordID), ts: strings.Clone(r.TimestampUTC), turnType: strings.Clone(r.TurnType),
		action: strings.Clone(r.Action), toolName: strings.Clone(r.ToolName), sourceFile: strings.Clone(r.SourceFile), sourceLine: r.SourceLine,
		text: strings.Clone(r.Text), toolInput: strings.Clone(r.ToolInput)}
}

// lineOf is the kept row's line, 0 when there is none.
func (k *keptRow) lineOf() int64 {
	if k == nil {
		return 0
	}
	return k.line
}

// ref is the kept row as a Ref of session s (its host, user, agent and
// session id from the detector's key).
func (k *keptRow) ref(s key) Ref {
	return Ref{Line: k.line, Row: &timeline.Row{Host: s.host, User: s.user, Agent: s.agent, SessionID: s.session,
		RecordID: k.recordID, TimestampUTC: k.ts, TurnType: k.turnType, Action: k.action, ToolName: k.toolName,
		SourceFile: k.sourceFile, SourceLine: k.sourceLine, Text: k.text, ToolInput: k.toolInput}}
}

// Options configure Run.
type Options struct {
	Dir string // the timeline output folder: timeline.jsonl is read, findings.jsonl written
	// Rules are the Sigma rules to run (Default() when nil).
	Rules []rules.Rule
	// Detectors are the built-in detectors (Detectors() when nil; an empty
	// non-nil slice runs none).
	Detectors []Detector
	// FingerprintKey keys the secret-exposure fingerprints
	// (DefaultFingerprintKey when empty).
	FingerprintKey []byte
}

// Summary is what Run found.
type Summary struct {
	Path     string
	Paths    []string // every file written: findings.jsonl, and findings.ecs.jsonl beside an ECS timeline
	Rows     int64    // rows read
	Rules    []string
	Findings []Finding
	ByLevel  map[string]int
	ByClass  map[string]int
}

// ErrNoTimeline is returned by Run when the folder holds no timeline.jsonl.
var ErrNoTimeline = errors.New("no timeline.jsonl in the folder (Run reads the rows from it)")

// Default returns the embedded rules.
func Default() ([]rules.Rule, error) { return rules.Builtin() }

type key struct{ rule, host, user, agent, session string }

// clone is k with strings of its own: a key held to the end of the run
// must not keep the row it was read from reachable (a decoded row's
// strings share one allocation with its text).
func (k key) clone() key {
	return key{strings.Clone(k.rule), strings.Clone(k.host), strings.Clone(k.user), strings.Clone(k.agent), strings.Clone(k.session)}
}

type acc struct {
	f     *Finding
	order int
}

// Runner evaluates the rules and detectors over rows given one at a
// time, in timeline order: the engine's output pass hands it every row it
// writes (analyze.Options.Rows), so findings need no second read of the
// timeline and are computed whatever --format says. Use it from one
// goroutine.
type Runner struct {
	rs    []rules.Rule
	ds    []Detector
	sum   *Summary
	found map[key]*acc
	row   sigmaRow
	// report holds each detector's report function, made once: a
	// closure made per row escapes through the interface call and cost
	// one allocation per detector per row.
	report []func(refs ...Ref)
	// done and doneErr are Finish's result, kept so that RowsDone (the
	// output pass) and the command's own Finish call write once.
	done    bool
	doneErr error
}

// New returns a Runner writing Dir/findings.jsonl when it finishes.
func New(o Options) (*Runner, error) {
	rs := o.Rules
	if rs == nil {
		var err error
		if rs, err = Default(); err != nil {
			return nil, err
		}
	}
	ds := o.Detectors
	if ds == nil {
		ds = Detectors()
	}
	sum := &Summary{Path: filepath.Join(o.Dir, FileName), ByLevel: map[string]int{}, ByClass: map[string]int{}}
	for _, r := range rs {
		sum.Rules = append(sum.Rules, r.ID+" "+r.Source)
	}
	for _, d := range ds {
		sum.Rules = append(sum.Rules, d.ID()+" builtin:"+d.Class())
	}
	for _, d := range ds {
		if sd, ok := d.(*SecretDetector); ok && len(o.FingerprintKey) > 0 {
			sd.key = o.FingerprintKey
		}
	}
	u := &Runner{rs: rs, ds: ds, sum: sum, found: map[key]*acc{}}
	u.report = make([]func(refs ...Ref), len(ds))
	for i, d := range ds {
		u.report[i] = func(refs ...Ref) {
			if len(refs) == 0 {
				return
			}
			first := refs[0].Row
			k := key{d.ID(), first.Host, first.User, first.Agent, first.SessionID}
			for _, x := range refs {
				u.add(k, func() *Finding {
					return &Finding{RuleID: d.ID(), RuleTitle: d.Title(), Level: d.Level(), Class: d.Class(), Engine: "builtin", RuleSource: "builtin:" + d.Class(),
						Host: first.Host, User: first.User, Agent: first.Agent, SessionID: first.SessionID}
				}, x)
			}
		}
	}
	return u, nil
}

func (u *Runner) add(k key, mk func() *Finding, x Ref) {
	u.addNote(k, mk, x, "")
}

func (u *Runner) addNote(k key, mk func() *Finding, x Ref, note string) {
	line, r := x.Line, x.Row
	a := u.found[k]
	if a == nil {
		a = &acc{f: mk(), order: len(u.found)}
		u.found[k] = a
	}
	fd := a.f
	for i, x := range fd.Rows { // a detector may name a row twice
		if x.Line == line {
			if note != "" && !strings.Contains(x.Note, note) {
				fd.Rows[i].Note = strings.TrimPrefix(x.Note+"; "+note, "; ")
			}
			return
		}
	}
	fd.RowCount++
	if len(fd.Rows) < MaxRowsListed {
		rf := ref(x.Line, x.Row)
		rf.Note = note
		fd.Rows = append(fd.Rows, rf)
	} else {
		fd.RowsCut = true
	}
	if t := r.TimestampUTC; t != "" {
		if fd.FirstUTC == "" || t < fd.FirstUTC {
			fd.FirstUTC = t
		}
		if t > fd.LastUTC {
			fd.LastUTC = t
		}
	}
}

// Row evaluates one row: line is its 1-based number in the timeline (its
// timeline.jsonl line), r its wire form (timeline.Event.WireRow). The
// detectors may keep r; the caller must not change it afterwards.
func (u *Runner) Row(line int64, r *timeline.Row) error {
	if u.done {
		return errors.New("findings: a row after Finish")
	}
	u.sum.Rows++
	row := &u.row
	row.reset(r)
	for i := range u.rs {
		rl := &u.rs[i]
		if !rl.Match(row) {
			continue
		}
		u.add(key{rl.ID, r.Host, r.User, r.Agent, r.SessionID}, func() *Finding {
			return &Finding{RuleID: rl.ID, RuleTitle: rl.Title, Level: rl.Level, Class: rl.Class, Engine: "sigma", RuleSource: rl.Source,
				Host: r.Host, User: r.User, Agent: r.Agent, SessionID: r.SessionID}
		}, Ref{Line: line, Row: r})
	}
	for i, d := range u.ds {
		d.Row(line, r, u.report[i])
	}
	return nil
}

// RowsDone is called by the output pass after the last row
// (outputs.RowsDone): it finishes at once, so that the detectors' and the
// rules' per-session state is released before the engine builds the
// sessions and the inventory, instead of staying live to the end of the
// run. Finish then returns what it wrote.
func (u *Runner) RowsDone() error {
	_, err := u.Finish()
	return err
}

// Finish orders the findings and writes findings.jsonl (also when nothing
// matched: an empty file says the rules ran). It runs once: a second call
// returns the first one's result. The rows and the detectors' state are
// released when it returns; only the summary is kept.
func (u *Runner) Finish() (*Summary, error) {
	if u.done {
		if u.doneErr != nil {
			return nil, u.doneErr
		}
		return u.sum, nil
	}
	u.done = true
	sum, err := u.finish()
	u.ds, u.rs, u.found, u.report, u.row = nil, nil, nil, nil, sigmaRow{}
	u.doneErr = err
	return sum, err
}

func (u *Runner) finish() (*Summary, error) {
	sum := u.sum
	for _, d := range u.ds {
		fi, ok := d.(Finisher)
		if !ok {
			continue
		}
		fi.Finish(func(note string, refs ...Ref) {
			if len(refs) == 0 {
				return
			}
			first := refs[0].Row
			k := key{d.ID(), first.Host, first.User, first.Agent, first.SessionID}
			for i, x := range refs {
				n := ""
				if i == 0 {
					n = note
				}
				u.addNote(k, func() *Finding {
					return &Finding{RuleID: d.ID(), RuleTitle: d.Title(), Level: d.Level(), Class: d.Class(), Engine: "builtin", RuleSource: "builtin:" + d.Class(),
						Host: first.Host, User: first.User, Agent: first.Agent, SessionID: first.SessionID}
				}, x, n)
			}
		})
	}
	u.foldBypassIntoHeadless()
	for _, a := range u.found {
		sort.Slice(a.f.Rows, func(i, j int) bool { return a.f.Rows[i].Line < a.f.Rows[j].Line })
		sum.Findings = append(sum.Findings, *a.f)
	}
	for _, d := range u.ds {
		if ex, ok := d.(Exposures); ok {
			sum.Findings = append(sum.Findings, ex.Findings()...)
		}
	}
	sort.Slice(sum.Findings, func(i, j int) bool { return less(&sum.Findings[i], &sum.Findings[j]) })
	for _, fd := range sum.Findings {
		sum.ByLevel[fd.Level]++
		sum.ByClass[fd.Class]++
	}
	if err := write(sum.Path, sum.Findings); err != nil {
		return nil, err
	}
	sum.Paths = []string{sum.Path}
	ep, err := writeECS(filepath.Dir(sum.Path), sum.Findings, u.rs)
	if err != nil {
		return nil, err
	}
	if ep != "" {
		sum.Paths = append(sum.Paths, ep)
	}
	return sum, nil
}

// GuardRailsSessionRuleID is the Sigma rule "Agent ran with its approvals
// or sandbox turned off" (doubleagent_guardrails_bypassed_session.yml).
const GuardRailsSessionRuleID = "ff47d7ba-7265-4eb7-878d-9d431036526f"

// foldBypassIntoHeadless keeps one guard-rails finding per session where
// both the headless detector and the Sigma bypass rule matched the same
// permission-mode rows: the headless finding, which says more (the entry
// point, and that the prompt came from a process). The Sigma finding's
// permission-mode rows join it (none is lost: the headless detector names
// the first bypass mode, the rule every one); what else the rule matched
// in the session (a tool call starting another agent with its guard rails
// off) stays a finding of its own, holding only those rows. A finding
// whose rows were cut (over MaxRowsListed) is left whole.
func (u *Runner) foldBypassIntoHeadless() {
	for k, h := range u.found {
		if k.rule != HeadlessBypassID {
			continue
		}
		sk := key{GuardRailsSessionRuleID, k.host, k.user, k.agent, k.session}
		sg := u.found[sk]
		if sg == nil || sg.f.RowsCut || h.f.RowsCut {
			continue
		}
		var rest []RowRef
		for _, r := range sg.f.Rows {
			if r.TurnType != string(timeline.System) || !(strings.HasPrefix(r.Text, "permission mode: ") || strings.HasPrefix(r.Text, "permission grant: ")) {
				rest = append(rest, r)
				continue
			}
			dup := false
			for _, x := range h.f.Rows {
				dup = dup || x.Line == r.Line
			}
			if dup {
				continue
			}
			h.f.Rows = append(h.f.Rows, r)
			h.f.RowCount++
			if t := r.TimestampUTC; t != "" {
				if h.f.FirstUTC == "" || t < h.f.FirstUTC {
					h.f.FirstUTC = t
				}
				if t > h.f.LastUTC {
					h.f.LastUTC = t
				}
			}
		}
		if len(rest) == 0 {
			delete(u.found, sk)
			continue
		}
		sg.f.Rows, sg.f.RowCount, sg.f.FirstUTC, sg.f.LastUTC = rest, len(rest), "", ""
		for _, r := range rest {
			if t := r.TimestampUTC; t != "" {
				if sg.f.FirstUTC == "" || t < sg.f.FirstUTC {
					sg.f.FirstUTC = t
				}
				if t > sg.f.LastUTC {
					sg.f.LastUTC = t
				}
			}
		}
	}
}

// Run evaluates the rules and detectors over Dir/timeline.jsonl, read
// back from the file, and writes Dir/findings.jsonl. The timeline command
// does not use it (its output pass hands the rows to a Runner); it serves
// a folder written earlier.
func Run(o Options) (*Summary, error) {
	u, err := New(o)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(o.Dir, analyze.TimelineJSONL)
	f, err := os.Open(src)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, ErrNoTimeline
		}
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var line int64
	for {
		b, rerr := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			line++
			r := new(timeline.Row)
			if err := json.Unmarshal(b, r); err != nil {
				return nil, fmt.Errorf("%s line %d: %w", src, line, err)
			}
			if err := u.Row(line, r); err != nil {
				return nil, err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, rerr
		}
	}
	return u.Finish()
}

// levelRank orders levels, most severe first.
var levelRank = map[string]int{"critical": 0, "high": 1, "medium": 2, "low": 3, "informational": 4}

// less orders findings: most severe first, then by first time (undated
// last), rule, host, user, agent, session.
func less(a, b *Finding) bool {
	if ra, rb := rank(a.Level), rank(b.Level); ra != rb {
		return ra < rb
	}
	if a.FirstUTC != b.FirstUTC {
		if a.FirstUTC == "" || b.FirstUTC == "" {
			return b.FirstUTC == ""
		}
		return a.FirstUTC < b.FirstUTC
	}
	for _, p := range [][2]string{{a.RuleID, b.RuleID}, {a.Host, b.Host}, {a.User, b.User}, {a.Agent, b.Agent}, {a.SessionID, b.SessionID}} {
		if p[0] != p[1] {
			return p[0] < p[1]
		}
	}
	if a.Secret != nil && b.Secret != nil {
		return a.Secret.Fingerprint < b.Secret.Fingerprint
	}
	return false
}

func rank(l string) int {
	if r, ok := levelRank[l]; ok {
		return r
	}
	return len(levelRank)
}

func ref(line int64, r *timeline.Row) RowRef {
	return RowRef{Line: line, RecordID: r.RecordID, TimestampUTC: r.TimestampUTC, TurnType: r.TurnType, Action: r.Action, ToolName: r.ToolName,
		SourceFile: r.SourceFile, SourceLine: r.SourceLine, Text: excerpt(r.Text), HiddenText: rowHidden(r)}
}

// rowHidden decodes the hidden characters of a row: its tool_input's
// (a control-surface entry's whole content), else its text's.
func rowHidden(r *timeline.Row) string {
	if h := HiddenText(r.ToolInput); h != "" {
		return h
	}
	return HiddenText(r.Text)
}

// excerpt is a matched row's text as a finding shows it: credential-shaped
// text redacted (parser.RedactSecrets; the row itself in timeline.jsonl
// keeps what the agent recorded), cut at excerptChars characters.
func excerpt(s string) string { return excerptN(parser.RedactSecrets(s), excerptChars) }

func excerptN(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "..."
		}
		n++
	}
	return s
}

// write writes findings.jsonl as a new file beside p, then renames it
// over p: a link planted at p is replaced, never written through (the
// findings command re-runs the rules over a folder that already holds a
// findings.jsonl, so p may exist), and a reader never sees half a file.
func write(p string, fs []Finding) (err error) {
	tmp := p + ".new-" + strconv.Itoa(os.Getpid())
	f, err := bundle.CreateNew(tmp, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
			return
		}
		err = os.Rename(tmp, p)
	}()
	w := timeline.NewWriter(f)
	for i := range fs {
		if fs[i].Rows == nil {
			fs[i].Rows = []RowRef{}
		}
		if err := w.Write(&fs[i]); err != nil {
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

// Read reads a findings.jsonl.
func Read(p string) ([]Finding, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for i, l := range bytes.Split(b, []byte{'\n'}) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var fd Finding
		if err := json.Unmarshal(l, &fd); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", p, i+1, err)
		}
		out = append(out, fd)
	}
	return out, nil
}

// Line is the summary line printed after a run.
func (s *Summary) Line() string {
	if len(s.Findings) == 0 {
		return fmt.Sprintf("findings: none from %d rules over %d rows", len(s.Rules), s.Rows)
	}
	var lv []string
	for _, l := range []string{"critical", "high", "medium", "low", "informational"} {
		if n := s.ByLevel[l]; n > 0 {
			lv = append(lv, fmt.Sprintf("%d %s", n, l))
		}
	}
	var cl []string
	for c := range s.ByClass {
		cl = append(cl, c)
	}
	sort.Strings(cl)
	for i, c := range cl {
		cl[i] = c + " " + strconv.Itoa(s.ByClass[c])
	}
	return fmt.Sprintf("findings: %d (%s) from %d rules over %d rows: %s (see %s)", len(s.Findings), strings.Join(lv, ", "), len(s.Rules), s.Rows, strings.Join(cl, ", "), FileName)
}

// Record is the summary as run.json records it.
func (s *Summary) Record() *analyze.RunFindings {
	return &analyze.RunFindings{Rules: s.Rules, Findings: len(s.Findings), ByLevel: s.ByLevel, ByClass: s.ByClass}
}

// Derived fields: computed from the row for the rules, not written in the
// timeline.
const (
	// DestinationClassField is the most exposed class of the hosts the
	// row's text names: public, private, loopback, or "" when it names none.
	DestinationClassField = "destination_class"
	// DestinationHostsField is those hosts, space separated, in order.
	DestinationHostsField = "destination_hosts"
)

// sigmaRow presents a timeline row to the Sigma evaluator by the
// timeline's field names, keeping the lower-cased fields the rules
// compare: each field is lower-cased at most once per row, whatever the
// number of rules reading it.
type sigmaRow struct {
	r     *timeline.Row
	lower [len(fieldNames)]string
	done  [len(fieldNames)]bool
	dests []Destination
	dsOK  bool
	// buf holds each field's lower-cased ASCII text, reused from row to
	// row: a lower-cased field is only compared, never kept past its row.
	buf [len(fieldNames)][]byte
}

// destinations are the hosts the row's text names, classified once per row.
func (s *sigmaRow) destinations() []Destination {
	if !s.dsOK {
		s.dests, s.dsOK = Destinations(s.r.Text), true
	}
	return s.dests
}

// fieldNames are the fields a rule can name, in timeline.Fields order.
var fieldNames = [...]string{"timestamp_utc", "host", "user", "agent", "session_id", "project_path", "turn_type", "model", "tool_name",
	"tool_use_id", "text", "tool_input", "is_error", "source_file", "source_line", "bundle_id", "parser", "secondary", "time_basis",
	"record_id", "parent_session_id", "verified", "action", "recovered", "provenance", DestinationClassField, DestinationHostsField}

func (s *sigmaRow) reset(r *timeline.Row) {
	s.r = r
	s.done = [len(fieldNames)]bool{}
	s.dests, s.dsOK = nil, false
}

// fieldIdx is a field's index in fieldNames, -1 for none: a switch, as a
// rule's condition asks for a field by name once per row and rule (a
// map's hash of the name was 7 % of the rules' time; TestFieldIdx).
func fieldIdx(name string) int {
	switch name {
	case "timestamp_utc":
		return 0
	case "host":
		return 1
	case "user":
		return 2
	case "agent":
		return 3
	case "session_id":
		return 4
	case "project_path":
		return 5
	case "turn_type":
		return 6
	case "model":
		return 7
	case "tool_name":
		return 8
	case "tool_use_id":
		return 9
	case "text":
		return 10
	case "tool_input":
		return 11
	case "is_error":
		return 12
	case "source_file":
		return 13
	case "source_line":
		return 14
	case "bundle_id":
		return 15
	case "parser":
		return 16
	case "secondary":
		return 17
	case "time_basis":
		return 18
	case "record_id":
		return 19
	case "parent_session_id":
		return 20
	case "verified":
		return 21
	case "action":
		return 22
	case "recovered":
		return 23
	case "provenance":
		return 24
	case DestinationClassField:
		return 25
	case DestinationHostsField:
		return 26
	}
	return -1
}

// Lower implements sigma.Lowerer.
func (s *sigmaRow) Lower(name string) string {
	i := fieldIdx(name)
	if i < 0 {
		return ""
	}
	if !s.done[i] {
		v, _ := s.Field(name)
		s.lower[i], s.done[i] = s.lowerInto(i, v), true
	}
	return s.lower[i]
}

// lowerInto is strings.ToLower(v), written into field i's buffer when v
// is ASCII with an upper-case letter (the text is valid until the next
// row); v itself when it has none; strings.ToLower's own copy otherwise.
func (s *sigmaRow) lowerInto(i int, v string) string {
	upper := false
	for j := 0; j < len(v); j++ {
		c := v[j]
		if c >= 0x80 {
			return strings.ToLower(v)
		}
		upper = upper || ('A' <= c && c <= 'Z')
	}
	if !upper {
		return v
	}
	b := s.buf[i][:0]
	for j := 0; j < len(v); j++ {
		c := v[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	if cap(b) <= 1<<20 { // a long one's buffer is not kept
		s.buf[i] = b
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func (s *sigmaRow) Field(name string) (string, bool) {
	r := s.r
	switch name {
	case "timestamp_utc":
		return r.TimestampUTC, true
	case "host":
		return r.Host, true
	case "user":
		return r.User, true
	case "agent":
		return r.Agent, true
	case "session_id":
		return r.SessionID, true
	case "project_path":
		return r.ProjectPath, true
	case "turn_type":
		return r.TurnType, true
	case "model":
		return r.Model, true
	case "tool_name":
		return r.ToolName, true
	case "tool_use_id":
		return r.ToolUseID, true
	case "text":
		return r.Text, true
	case "tool_input":
		return r.ToolInput, true
	case "is_error":
		return r.IsError, true
	case "source_file":
		return r.SourceFile, true
	case "source_line":
		return strconv.FormatInt(r.SourceLine, 10), true
	case "bundle_id":
		return r.BundleID, true
	case "parser":
		return r.Parser, true
	case "secondary":
		return r.Secondary, true
	case "time_basis":
		return r.TimeBasis, true
	case "record_id":
		return r.RecordID, true
	case "parent_session_id":
		return r.ParentSessID, true
	case "verified":
		return r.Verified, true
	case "action":
		return r.Action, true
	case "recovered":
		return r.Recovered, true
	case "provenance":
		return r.Provenance, true
	case DestinationClassField:
		return mostExposed(s.destinations()), true
	case DestinationHostsField:
		hs := make([]string, len(s.destinations()))
		for i, d := range s.destinations() {
			hs[i] = d.Host
		}
		return strings.Join(hs, " "), true
	}
	return "", false
}

func (s *sigmaRow) Fields() []string {
	return timeline.Row(*s.r).Values()
}

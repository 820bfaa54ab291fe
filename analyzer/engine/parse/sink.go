package parse

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/engine/problem"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// KindImplausibleTime is the problem kind for rows whose times lie outside
// the plausible window (see parser.Plausible).
const KindImplausibleTime = "implausible_time"

// sink is the parser.Sink for one file and one parser.
type sink struct {
	buf      []timeline.Event
	st       *Stage
	input    string
	loose    bool
	file     *parser.File
	verified bool
	// token stands for verified until the file's bundle has been read
	// to its manifest (a member parsed from the stream).
	token   string
	parser  parser.Parser
	seq     int64
	err     error
	probs   int
	nstates int
	acct    fileAccount
	bud     *budget // a SQLite store's budget, nil for other files
	// ref is the time the plausible window ends a day after (the
	// collection's start, else the run's); odd counts the rows whose time
	// lies outside it, oddFirst the first of them, oddLent the rows that
	// inherited such a time and were left undated.
	ref      time.Time
	odd      int
	oddFirst string
	oddLine  int64
	oddLent  int
}

// fileAccount is what became of the records of one file a parser read:
// records counts distinct positions (line, rowid, array index) that gave
// a row, a skip or a problem.
type fileAccount struct {
	positions
	rows    int
	skipped map[string]int
}

// positions counts distinct positions: a bit set for the dense small
// positions of line-based files (at most 2 MiB for 16 M lines), a map for
// the rest (large rowids, byte offsets).
type positions struct {
	n    int
	bits []uint64
	set  map[int64]struct{}
}

const denseLimit = 1 << 24

func (p *positions) add(line int64) {
	if line <= 0 {
		return
	}
	if line < denseLimit {
		w := int(line >> 6)
		if w >= len(p.bits) {
			p.bits = append(p.bits, make([]uint64, max(w+1-len(p.bits), len(p.bits)))...)
		}
		if m := uint64(1) << (line & 63); p.bits[w]&m == 0 {
			p.bits[w] |= m
			p.n++
		}
		return
	}
	if p.set == nil {
		p.set = map[int64]struct{}{}
	}
	if _, ok := p.set[line]; !ok {
		p.set[line] = struct{}{}
		p.n++
	}
}

func (a *fileAccount) skip(line int64, reason string) {
	if a.skipped == nil {
		a.skipped = map[string]int{}
	}
	a.skipped[reason]++
	a.add(line)
}

func (s *sink) Event(e timeline.Event) {
	e.Host, e.User, e.BundleID = s.file.Host, s.file.User, s.file.BundleID
	if e.Agent == "" {
		e.Agent = s.file.Agent
	}
	if e.SourceFile == "" {
		e.SourceFile = s.file.Path
	}
	e.Parser = s.parser.ID()
	s.bud.tick(s.file.Path)
	switch {
	case s.token != "":
		e.Verified = s.token // decided later (inputs.Verdicts)
	case s.loose:
		e.Verified = ""
	case s.verified:
		e.Verified = "true"
	default:
		e.Verified = "false"
	}
	if e.Action == "" && (e.TurnType == timeline.ToolUse || e.TurnType == timeline.ToolResult) {
		e.Action = s.st.action(e.Agent, e.ToolName)
	}
	s.acct.rows++
	if e.SourceFile == s.file.Path {
		s.acct.add(e.SourceLine)
	}
	if e.TurnType == timeline.System && settingRow(e.Text) {
		e.Text = parser.RedactSecrets(e.Text)
	}
	s.seq++
	e.Seq = s.seq
	if !e.Time.IsZero() {
		e.Time = e.Time.UTC()
		if !parser.Plausible(e.Time, s.ref) {
			s.implausible(&e)
		}
	}
	s.buf = append(s.buf, e)
	if len(s.buf) >= batchLen {
		s.flush()
	}
}

// flush hands the buffered events to the store.
func (s *sink) flush() {
	if len(s.buf) == 0 {
		return
	}
	if err := s.st.store.AddRows(s.buf, s.input); err != nil && s.err == nil {
		s.err = err
	}
	s.buf = s.buf[:0]
}

// implausible marks a row whose time lies outside the plausible window:
// a time of its own is kept as recorded with time_basis "implausible"; a
// time it inherited (from an enclosing record or the record before) is
// not lent on, and the row is undated (time_basis "none"). finish writes
// one problem for the file.
func (s *sink) implausible(e *timeline.Event) {
	if e.TimeBasis == timeline.TimeInherited {
		s.oddLent++
		e.Time, e.TimeBasis = time.Time{}, timeline.TimeNone
		return
	}
	s.odd++
	if s.odd == 1 {
		basis := "recorded by the agent"
		if e.TimeBasis != timeline.TimeRecorded {
			basis = "time_basis " + string(e.TimeBasis)
		}
		s.oddFirst, s.oddLine = e.Time.Format("2006-01-02T15:04:05.000Z07:00")+" ("+basis+")", e.SourceLine
	}
	e.TimeBasis = timeline.TimeImplausible
}

// implausibleProblem reports the file's rows with implausible times.
func (s *sink) implausibleProblem() {
	if s.odd == 0 && s.oddLent == 0 {
		return
	}
	from, to := parser.TimeFloor.Format(time.DateOnly), s.ref.Add(parser.PlausibleSlack).Format(time.RFC3339)
	msg := fmt.Sprintf("%d row(s) with a time outside the plausible window %s to %s kept as recorded, time_basis implausible", s.odd, from, to)
	if s.odd > 0 {
		msg += fmt.Sprintf("; the first at line %d: %s", s.oddLine, s.oddFirst)
	}
	if s.oddLent > 0 {
		msg += fmt.Sprintf("; %d row(s) that inherited such a time left undated (time_basis none)", s.oddLent)
	}
	s.report(s.oddLine, KindImplausibleTime, msg, false)
}

func (s *sink) Session(st timeline.SessionState) {
	st.Key.Host, st.Key.User = s.file.Host, s.file.User
	if st.Key.Agent == "" {
		st.Key.Agent = s.file.Agent
	}
	s.nstates++
	s.st.store.AddState(st, s.file.Path+"\x00"+s.file.BundleID+"\x00"+s.parser.ID(), s.nstates)
}

func (s *sink) Problem(line int64, msg string) { s.Report(line, parser.KindParse, msg) }

func (s *sink) Report(line int64, kind, msg string) { s.report(line, kind, msg, true) }

// report records a problem; account counts its line as a record that
// gave no row (false for a problem about rows already written).
func (s *sink) report(line int64, kind, msg string, account bool) {
	s.bud.tick(s.file.Path)
	s.probs++
	if line > 0 && account {
		s.acct.skip(line, kind)
	}
	p := problem.Problem{Host: s.file.Host, BundleID: s.file.BundleID, Input: s.input, SourceFile: s.file.Path,
		SourceLine: line, Agent: s.file.Agent, Parser: s.parser.ID(), Kind: kind, Message: msg}
	k := problemKey{p.Host, p.BundleID, p.Input, p.SourceFile, p.SourceLine, p.Kind, p.Message}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	// One file gives one problem, not one per parser that opens it: the
	// same problem about a whole file (line 0) from another parser (a
	// settings file both the settings and the control-surface parsers
	// cannot read) names that parser too ("a,b", sorted) rather than
	// repeating the row. Only file-level problems are indexed, so the
	// index grows with files × parsers, never with a damaged file's lines.
	if line != 0 {
		st.problems = append(st.problems, p)
		return
	}
	if i, ok := st.probAt[k]; ok {
		st.problems[i].Parser = addParser(st.problems[i].Parser, p.Parser)
		return
	}
	if st.probAt == nil {
		st.probAt = map[problemKey]int{}
	}
	st.probAt[k] = len(st.problems)
	st.problems = append(st.problems, p)
}

// problemKey is what a problem says about a file, without the parser.
type problemKey struct {
	host, bundle, input, file string
	line                      int64
	kind, msg                 string
}

// addParser adds id to a sorted comma-separated list of parser IDs.
func addParser(list, id string) string {
	ids := strings.Split(list, ",")
	if slices.Contains(ids, id) {
		return list
	}
	ids = append(ids, id)
	slices.Sort(ids)
	return strings.Join(ids, ",")
}

func (s *sink) Skip(line int64, reason string) { s.bud.tick(s.file.Path); s.acct.skip(line, reason) }

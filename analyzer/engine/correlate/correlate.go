package correlate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The correlation pass (analyzer/docs/output.md, "One event, one row"):
//
//  1. Identity. Every row with a record id gives an idStub. Sorted by
//     (host, user, agent, record id) and then by rank, the first stub of
//     each content is kept and every later stub with the same content is a
//     repeat (its row is dropped and counted). A second content under one
//     id is kept too and reported as duplicate_id, naming each content
//     (its gist) and where it was read.
//  2. Secondary sources. Every secondary row, and a stub of every primary
//     row its agent's secondary sources could repeat, go to a pairing
//     sorter ordered by (host, user, agent, turn type, text, time). Within
//     each group of equal text, a secondary row pairs with at most one
//     primary row of the same session (when it names one) within its
//     source's declared window; paired rows are dropped and counted, the
//     rest are written, marked secondary.
//  3. Rows without a record id fall back to full-value keys (see
//     dupWindow), never text alone and never a hash alone.
//  4. Sessions. When every row is written, the session states parsers
//     gave are merged (mergeStates) and each session's parent link is
//     decided from the rows and the states together (decideSessions);
//     every disagreement is a state_conflict problem naming the values.
//
// This file is the one owner of those merges: the timeline Aggregator
// only counts, and the output pass calls these steps.

// idStub is what the identity merge needs of one row.
type idStub struct {
	Host, User, Agent, RecordID string
	Content                     [16]byte // hashes of the row's content (see contentHash)
	Secondary, Replayed         bool
	Time                        int64 // UnixNano; undated rows rank last
	SourceFile, BundleID        string
	SessionID                   string
	// Gist is a short form of the content (see gist), for the problem a
	// second content under one id gives.
	Gist            string
	SourceLine, Seq int64
	Ord             int64
}

func idLess(a, b *idStub) bool {
	if a.Host != b.Host {
		return a.Host < b.Host
	}
	if a.User != b.User {
		return a.User < b.User
	}
	if a.Agent != b.Agent {
		return a.Agent < b.Agent
	}
	if a.RecordID != b.RecordID {
		return a.RecordID < b.RecordID
	}
	return rankLess(a, b)
}

// rankLess orders the rows of one record id: a primary row before a
// secondary one, an original before a replayed copy, then timeline order.
func rankLess(a, b *idStub) bool {
	if a.Secondary != b.Secondary {
		return !a.Secondary
	}
	if a.Replayed != b.Replayed {
		return !a.Replayed
	}
	if a.Time != b.Time {
		return a.Time < b.Time
	}
	if a.SourceFile != b.SourceFile {
		return a.SourceFile < b.SourceFile
	}
	if a.SourceLine != b.SourceLine {
		return a.SourceLine < b.SourceLine
	}
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	if a.BundleID != b.BundleID {
		return a.BundleID < b.BundleID
	}
	return a.Ord < b.Ord
}

func idSize(s *idStub) int64 {
	return int64(unsafe.Sizeof(*s)) + int64(len(s.Host)+len(s.User)+len(s.Agent)+len(s.RecordID)+len(s.SourceFile)+len(s.BundleID)+len(s.SessionID)+len(s.Gist))
}

func unixOrMax(t time.Time) int64 {
	if t.IsZero() {
		return math.MaxInt64
	}
	return t.UnixNano()
}

// hashSeeds are the run's two maphash seeds: content hashes are compared
// only within one run, so they need not be stable across runs.
var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// contentHash is a 128-bit hash of what a row says (turn type, tool name,
// tool_use_id, text, tool input, is_error), not where or when: a fork that
// re-stamps a replayed record, or a copy under a new session id, says the
// same. It only tells two rows of one exact record id apart.
func contentHash(e *timeline.Event) [16]byte {
	var out [16]byte
	for i, seed := range hashSeeds {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, s := range []string{string(e.TurnType), e.ToolName, e.ToolUseID, e.Text, e.ToolInput, e.IsError} {
			h.WriteString(s)
			h.WriteByte(0)
		}
		v := h.Sum64()
		for j := 0; j < 8; j++ {
			out[i*8+j] = byte(v >> (8 * j))
		}
	}
	return out
}

func stubOf(e *timeline.Event) idStub {
	return idStub{Host: e.Host, User: e.User, Agent: e.Agent, RecordID: e.RecordID, Content: contentHash(e),
		Secondary: e.Secondary, Replayed: e.Replayed || e.Recovered != "", Time: unixOrMax(e.Time), SourceFile: e.SourceFile, // a recovered row ranks as a copy: the live row of its id wins
		BundleID: e.BundleID, SessionID: e.SessionID, Gist: gist(e), SourceLine: e.SourceLine, Seq: e.Seq, Ord: e.Ord}
}

// A gist quotes a text of up to gistBytes whole, a longer one as its
// first gistHead and last gistTail bytes (cut on rune boundaries).
const (
	gistBytes = 64
	gistHead  = 36
	gistTail  = 24
)

// gist is what a duplicate_id problem says of one content: the turn type,
// the tool name, and the text (the tool input when the text is empty),
// quoted, a long one as its head and tail: `tool_use Bash "rm -rf /"`,
// `system "chat edited file: /home/exam"..."state=rejected request=r1"`.
// Two contents can share a gist (they differ in the middle of a long text,
// or in a field it leaves out); their places still tell them apart.
func gist(e *timeline.Event) string {
	t := e.Text
	if t == "" {
		t = e.ToolInput
	}
	g := string(e.TurnType)
	if e.ToolName != "" {
		g += " " + e.ToolName
	}
	if len(t) <= gistBytes {
		return g + " " + strconv.Quote(t)
	}
	h := gistHead
	for h > 0 && !utf8.RuneStart(t[h]) {
		h--
	}
	tl := len(t) - gistTail
	for tl < len(t) && !utf8.RuneStart(t[tl]) {
		tl++
	}
	return g + " " + strconv.Quote(t[:h]) + "..." + strconv.Quote(t[tl:])
}

// bitset marks row ordinals.
type bitset []uint64

func (b *bitset) set(i int64) {
	w := int(i >> 6)
	if w >= len(*b) {
		*b = append(*b, make([]uint64, w+1-len(*b))...)
	}
	(*b)[w] |= 1 << (i & 63)
}

func (b bitset) has(i int64) bool {
	w := int(i >> 6)
	return w < len(b) && b[w]&(1<<(i&63)) != 0
}

// resolveIdentities runs step 1: it marks the repeated rows in c.losers and
// reports every record id with more than one content.
func (c *Correlator) resolveIdentities() error {
	var group []idStub
	flush := func() {
		if len(group) == 0 {
			return
		}
		first := map[[16]byte]*idStub{}
		var order []*idStub
		for i := range group {
			s := &group[i]
			if f, ok := first[s.Content]; ok {
				_ = f
				c.losers.set(s.Ord)
				if c.counted(s.Ord) {
					c.repeatedByID++
					if s.Secondary {
						c.secondaryByID++
					}
				}
				continue
			}
			first[s.Content] = s
			order = append(order, s)
		}
		if len(order) > 1 {
			k := order[0]
			var vals []string
			for _, s := range order {
				vals = append(vals, fmt.Sprintf("%s (at %s:%d)", s.Gist, s.SourceFile, s.SourceLine))
			}
			c.problems = append(c.problems, Problem{Host: k.Host, BundleID: k.BundleID, SourceFile: k.SourceFile, SourceLine: k.SourceLine,
				Agent: k.Agent, Kind: parser.KindDuplicateID,
				Message: fmt.Sprintf("record id %q has %d different contents: %s: all kept", k.RecordID, len(order), joinAnd(vals))})
			c.duplicateIDs++
		}
		group = group[:0]
	}
	err := c.ids.Each(func(s *idStub) error {
		if len(group) > 0 {
			g := &group[0]
			if g.Host != s.Host || g.User != s.User || g.Agent != s.Agent || g.RecordID != s.RecordID {
				flush()
			}
		}
		group = append(group, *s)
		return nil
	})
	flush()
	return err
}

// pairRow is a row in the secondary pairing: a secondary row whole, or the
// fields of a primary row it may repeat.
type pairRow struct {
	Host, User, Agent string
	TurnType          timeline.TurnType
	Text              string // trimmed of white space at both ends
	Time              int64  // UnixNano; undated last
	SessionID         string
	Primary           bool
	Ord               int64
	Ev                timeline.Event // secondary rows only
}

func pairLess(a, b *pairRow) bool {
	if a.Host != b.Host {
		return a.Host < b.Host
	}
	if a.User != b.User {
		return a.User < b.User
	}
	if a.Agent != b.Agent {
		return a.Agent < b.Agent
	}
	if a.TurnType != b.TurnType {
		return a.TurnType < b.TurnType
	}
	if a.Text != b.Text {
		return a.Text < b.Text
	}
	if a.Primary != b.Primary {
		return a.Primary
	}
	if a.Time != b.Time {
		return a.Time < b.Time
	}
	if a.SessionID != b.SessionID {
		return a.SessionID < b.SessionID
	}
	return timeline.Less(&a.Ev, &b.Ev)
}

func pairSize(p *pairRow) int64 {
	n := int64(unsafe.Sizeof(*p)) + int64(len(p.Host)+len(p.User)+len(p.Agent)+len(p.Text)+len(p.SessionID))
	if !p.Primary {
		n += int64(len(p.Ev.ToolInput) + len(p.Ev.SourceFile) + len(p.Ev.ProjectPath) + len(p.Ev.Parser) + len(p.Ev.RecordID) + len(p.Ev.BundleID))
	}
	return n
}

func pairOf(e *timeline.Event, primary bool) pairRow {
	p := pairRow{Host: e.Host, User: e.User, Agent: e.Agent, TurnType: e.TurnType, Text: strings.TrimSpace(e.Text),
		Time: unixOrMax(e.Time), SessionID: e.SessionID, Primary: primary, Ord: e.Ord}
	if !primary {
		p.Ev = *e
	}
	return p
}

// pairSecondaries runs step 2 and hands every secondary row that pairs
// with nothing to keep.
func (c *Correlator) pairSecondaries(keep func(e *timeline.Event) error) error {
	var prim []pairRow
	var sec []pairRow
	flush := func() error {
		if len(sec) == 0 {
			prim, sec = prim[:0], sec[:0]
			return nil
		}
		used := make([]bool, len(prim))
		take := func(s *pairRow, bounded bool, w int64) bool {
			best, bestD := -1, int64(math.MaxInt64)
			lo := 0
			if bounded {
				lo = sort.Search(len(prim), func(i int) bool { return prim[i].Time >= s.Time-w })
			}
			for i := lo; i < len(prim); i++ {
				p := &prim[i]
				if bounded && (p.Time == math.MaxInt64 || p.Time > s.Time+w) {
					break
				}
				if used[i] || (s.SessionID != "" && p.SessionID != s.SessionID) {
					continue
				}
				if !bounded {
					best = i
					break
				}
				d := p.Time - s.Time
				if d < 0 {
					d = -d
				}
				if d < bestD {
					best, bestD = i, d
				}
			}
			if best < 0 {
				return false
			}
			used[best] = true
			return true
		}
		// Rows with a usable time and a window pair first, the rest take
		// what is left.
		paired := make([]bool, len(sec))
		for pass := 0; pass < 2; pass++ {
			for i := range sec {
				s := &sec[i]
				w, bounded := c.window(&s.Ev)
				if bounded != (pass == 0) {
					continue
				}
				paired[i] = take(s, bounded, w)
			}
		}
		for i := range sec {
			if paired[i] {
				if c.counted(sec[i].Ord) {
					c.secondaryPaired++
				}
				continue
			}
			if err := keep(&sec[i].Ev); err != nil {
				return err
			}
		}
		prim, sec = prim[:0], sec[:0]
		return nil
	}
	var last *pairRow
	err := c.pair.Each(func(p *pairRow) error {
		if last != nil && (last.Host != p.Host || last.User != p.User || last.Agent != p.Agent || last.TurnType != p.TurnType || last.Text != p.Text) {
			if err := flush(); err != nil {
				return err
			}
		}
		if c.losers.has(p.Ord) {
			return nil // a repeat by record id: counted there
		}
		if p.Primary {
			prim = append(prim, *p)
			last = &prim[len(prim)-1]
		} else {
			sec = append(sec, *p)
			last = &sec[len(sec)-1]
		}
		cp := *last
		last = &cp
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// window returns a secondary row's pairing window and whether it is
// bounded in time (a declared window and a recorded time).
func (c *Correlator) window(e *timeline.Event) (int64, bool) {
	sp := c.secondarySpecs[e.Parser]
	if sp == nil || sp.Window <= 0 || e.Time.IsZero() {
		return 0, false
	}
	return int64(sp.Window), true
}

// Run codecs for the correlation sorters (the length framing is the
// sorter's): strings as length-prefixed bytes, numbers as varints.

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

type reader struct {
	b   []byte
	err bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string {
	n := r.uvarint()
	if r.err || uint64(len(r.b)) < n {
		r.err = true
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// strReuse is str keeping old when it holds the same bytes (a run's
// records repeat their host, user, file and session).
func (r *reader) strReuse(old string) string {
	n := r.uvarint()
	if r.err || uint64(len(r.b)) < n {
		r.err = true
		return ""
	}
	b := r.b[:n]
	r.b = r.b[n:]
	if string(b) == old {
		return old
	}
	return string(b)
}

var errRun = errors.New("analyze: corrupt run record")

var idCodec = timeline.Codec[idStub]{
	Append: func(b []byte, s *idStub) []byte {
		for _, v := range []string{s.Host, s.User, s.Agent, s.RecordID, s.SourceFile, s.BundleID, s.SessionID, s.Gist} {
			b = appendStr(b, v)
		}
		b = append(b, s.Content[:]...)
		var fl byte
		if s.Secondary {
			fl |= 1
		}
		if s.Replayed {
			fl |= 2
		}
		b = append(b, fl)
		for _, v := range []int64{s.Time, s.SourceLine, s.Seq, s.Ord} {
			b = binary.AppendVarint(b, v)
		}
		return b
	},
	Decode: func(b []byte, s *idStub) error {
		r := &reader{b: b}
		for _, p := range []*string{&s.Host, &s.User, &s.Agent, &s.RecordID, &s.SourceFile, &s.BundleID, &s.SessionID, &s.Gist} {
			*p = r.strReuse(*p)
		}
		if r.err || len(r.b) < 17 {
			return errRun
		}
		copy(s.Content[:], r.b[:16])
		s.Secondary, s.Replayed = r.b[16]&1 != 0, r.b[16]&2 != 0
		r.b = r.b[17:]
		for _, p := range []*int64{&s.Time, &s.SourceLine, &s.Seq, &s.Ord} {
			*p = r.varint()
		}
		if r.err || len(r.b) != 0 {
			return errRun
		}
		return nil
	},
	Reuse: true, // Decode sets every field
}

var pairCodec = timeline.Codec[pairRow]{
	Append: func(b []byte, p *pairRow) []byte {
		for _, v := range []string{p.Host, p.User, p.Agent, string(p.TurnType), p.Text, p.SessionID} {
			b = appendStr(b, v)
		}
		fl := byte(0)
		if p.Primary {
			fl = 1
		}
		b = append(b, fl)
		b = binary.AppendVarint(b, p.Time)
		b = binary.AppendVarint(b, p.Ord)
		if p.Primary {
			return b
		}
		return timeline.AppendEventBinary(b, &p.Ev)
	},
	Decode: func(b []byte, p *pairRow) error {
		r := &reader{b: b}
		var tt string
		for _, v := range []*string{&p.Host, &p.User, &p.Agent, &tt, &p.Text, &p.SessionID} {
			*v = r.str()
		}
		p.TurnType = timeline.TurnType(tt)
		if r.err || len(r.b) < 1 {
			return errRun
		}
		p.Primary = r.b[0] == 1
		r.b = r.b[1:]
		p.Time, p.Ord = r.varint(), r.varint()
		if r.err {
			return errRun
		}
		if p.Primary {
			if len(r.b) != 0 {
				return errRun
			}
			return nil
		}
		return timeline.DecodeEventBinary(r.b, &p.Ev)
	},
}

// mergeStates folds the session states parsers gave in a fixed order (by
// session, then source file, bundle, parser and emission order), so the
// result never depends on scheduling: the first value recorded for a
// field is kept, a different later value is a state_conflict problem.
// Recovered takes the strongest value instead (yes > partial > no): a
// parser that saw a deletion knows more than one that did not.
func (c *Correlator) mergeStates() []mergedState {
	sort.SliceStable(c.states, func(i, j int) bool {
		a, b := &c.states[i], &c.states[j]
		if a.st.Key != b.st.Key {
			ka, kb := a.st.Key, b.st.Key
			return ka.Host+"\x00"+ka.User+"\x00"+ka.Agent+"\x00"+ka.SessionID < kb.Host+"\x00"+kb.User+"\x00"+kb.Agent+"\x00"+kb.SessionID
		}
		if a.file != b.file {
			return a.file < b.file
		}
		return a.seq < b.seq
	})
	var out []mergedState
	for i := 0; i < len(c.states); {
		j := i
		m := timeline.SessionState{Key: c.states[i].st.Key}
		parentFrom := ""
		for ; j < len(c.states) && c.states[j].st.Key == m.Key; j++ {
			st := &c.states[j].st
			for _, f := range []struct {
				name string
				dst  *string
				v    string
			}{{"synced", &m.Synced, st.Synced}, {"origin", &m.Origin, st.Origin}, {"relayed", &m.Relayed, st.Relayed},
				{"parent_session_id", &m.ParentSessionID, st.ParentSessionID}, {"forked_from", &m.ForkedFrom, st.ForkedFrom}} {
				switch {
				case f.v == "" || f.v == *f.dst:
				case *f.dst == "":
					*f.dst = f.v
					if f.name == "parent_session_id" {
						parentFrom = c.states[j].file
					}
				default:
					k := m.Key
					c.problems = append(c.problems, Problem{Host: k.Host, Agent: k.Agent, SourceFile: strings.SplitN(c.states[j].file, "\x00", 2)[0], Kind: parser.KindStateConflict,
						Message: fmt.Sprintf("session %s: %s recorded as %q and as %q; kept %q (first in file order)", k.SessionID, f.name, *f.dst, f.v, *f.dst)})
				}
			}
			if timeline.RecoveredRank(st.Recovered) > timeline.RecoveredRank(m.Recovered) {
				m.Recovered = st.Recovered
			}
		}
		out = append(out, mergedState{st: m, parentFrom: parentFrom})
		i = j
	}
	return out
}

// mergedState is a session's state folded from every parser's, with the
// file (path, bundle id, parser id, NUL-separated) whose parent link was
// kept.
type mergedState struct {
	st         timeline.SessionState
	parentFrom string
}

// decideSessions is the last step of the correlation pass, run when every
// row has been written: it folds the session states (mergeStates) into
// the aggregator, then decides each session's parent link from what every
// file said, the rows naming a parent (each distinct value with the first
// row naming it, in timeline order) and the merged state, and sets the
// links (SetLinks). One value is the link. Two or more are a
// state_conflict problem naming every value and where it was read; the
// value kept is the session state's when one names a parent (a parser's
// link record, such as a subagent's meta file or a fork's session_meta,
// says more than a field copied onto rows), else the first row's in
// timeline order. The rows keep the parent each names. The fork link
// (forked_from) is only ever recorded as state; mergeStates reports its
// conflicts.
func (c *Correlator) decideSessions(agg *timeline.Aggregator) {
	merged := c.mergeStates()
	byKey := make(map[timeline.SessionKey]*mergedState, len(merged))
	for i := range merged {
		m := &merged[i]
		agg.SetState(m.st)
		byKey[m.st.Key] = m
	}
	decided := map[timeline.SessionKey]bool{}
	agg.RowParents(func(k timeline.SessionKey, seen []timeline.ParentSeen, more int) {
		decided[k] = true
		m := byKey[k]
		state, fork := "", ""
		if m != nil {
			state, fork = m.st.ParentSessionID, m.st.ForkedFrom
		}
		kept := seen[0].Value
		if state != "" {
			kept = state
		}
		agg.SetLinks(k, kept, fork)
		var vals []string
		for _, p := range seen {
			if p.Value != state {
				vals = append(vals, fmt.Sprintf("%q (a row of %s)", p.Value, at(p.SourceFile, p.SourceLine)))
			}
		}
		if state != "" && len(vals) > 0 {
			vals = append(vals, fmt.Sprintf("%q (the session state from %s)", state, strings.SplitN(m.parentFrom, "\x00", 2)[0]))
		}
		if len(vals) < 2 && more == 0 {
			return
		}
		why := "the session state's"
		if state == "" {
			why = "the first row's in timeline order"
		}
		if more > 0 {
			vals = append(vals, fmt.Sprintf("%d more distinct value(s)", more))
		}
		file, bid := seen[0].SourceFile, seen[0].BundleID
		if state != "" {
			parts := strings.SplitN(m.parentFrom, "\x00", 3)
			file = parts[0]
			if len(parts) > 1 {
				bid = parts[1]
			}
		}
		c.problems = append(c.problems, Problem{Host: k.Host, BundleID: bid, SourceFile: file, Agent: k.Agent, Kind: parser.KindStateConflict,
			Message: fmt.Sprintf("session %s: parent_session_id recorded as %s; kept %q (%s); every row keeps the parent it names", k.SessionID, joinAnd(vals), kept, why)})
	})
	for _, m := range merged {
		if !decided[m.st.Key] && (m.st.ParentSessionID != "" || m.st.ForkedFrom != "") {
			agg.SetLinks(m.st.Key, m.st.ParentSessionID, m.st.ForkedFrom)
		}
	}
}

// at names a position: the file, and its line when known.
func at(file string, line int64) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// joinAnd joins "a", "b" and "c" as `a, b and c`.
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// dupWindow drops a row without a record id that repeats another, by
// full-value keys compared field by field, never text alone and never a
// hash alone:
//   - a dated row with the same host, user, agent, session, turn type,
//     time, tool_use_id, text and tool input as a row of another source
//     file (a resumed session's file repeating earlier records, a legacy
//     file and its migrated copy). Equal rows share a timestamp, so only
//     the rows of the current instant are held.
//   - any row, dated or not, that repeats the row just before it at the
//     same position (host, source file, line, parser, emission order) with
//     the same content: the same evidence read twice (a bundle and its
//     extracted copy, two collections of one host).
//
// Undated rows of different files are never merged.
type dupWindow struct {
	t    time.Time
	keys map[[16]byte][]*timeline.Event // content hash -> rows of this instant (compared field by field)
	prev timeline.Event                 // the previous row
	has  bool
}

// samePosition: e repeats the row before it at the same position with the
// same content (every field an examiner reads).
func samePosition(a, b *timeline.Event) bool {
	return a.Host == b.Host && a.SourceFile == b.SourceFile && a.SourceLine == b.SourceLine && a.Parser == b.Parser && a.Seq == b.Seq &&
		a.User == b.User && a.Agent == b.Agent && a.SessionID == b.SessionID && a.TurnType == b.TurnType && a.ToolUseID == b.ToolUseID &&
		a.ToolName == b.ToolName && a.Text == b.Text && a.ToolInput == b.ToolInput && a.IsError == b.IsError && a.Time.Equal(b.Time)
}

// sameFullValue: the fallback key of rows of one instant.
func sameFullValue(a, b *timeline.Event) bool {
	return a.Host == b.Host && a.User == b.User && a.Agent == b.Agent && a.SessionID == b.SessionID && a.TurnType == b.TurnType &&
		a.ToolUseID == b.ToolUseID && a.Text == b.Text && a.ToolInput == b.ToolInput && a.Recovered == b.Recovered // a recovered row never merges into a live one by value
}

var dupSeed = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func fullValueHash(e *timeline.Event) [16]byte {
	var out [16]byte
	for i, seed := range dupSeed {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, s := range []string{e.Host, e.User, e.Agent, e.SessionID, string(e.TurnType), e.ToolUseID, e.Text, e.ToolInput} {
			h.WriteString(s)
			h.WriteByte(0)
		}
		v := h.Sum64()
		for j := 0; j < 8; j++ {
			out[i*8+j] = byte(v >> (8 * j))
		}
	}
	return out
}

func (d *dupWindow) duplicate(e *timeline.Event) bool {
	if d.has && samePosition(e, &d.prev) {
		return true
	}
	d.prev, d.has = *e, true
	if e.Time.IsZero() {
		return false
	}
	if !e.Time.Equal(d.t) || d.keys == nil {
		d.t = e.Time
		d.keys = map[[16]byte][]*timeline.Event{}
	}
	// The hash finds the candidates; rows are compared field by field, so
	// a collision never merges two rows.
	k := fullValueHash(e)
	for _, o := range d.keys[k] {
		if sameFullValue(e, o) {
			return o.SourceFile != e.SourceFile
		}
	}
	cp := *e
	d.keys[k] = append(d.keys[k], &cp)
	return false
}

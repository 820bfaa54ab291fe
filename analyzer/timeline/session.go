package timeline

import (
	"slices"
	"strings"
	"time"
)

// Session is one row of sessions.jsonl: one per host, user, agent and
// session, aggregated from the timeline rows.
type Session struct {
	Host           string   `json:"host"`
	User           string   `json:"user"`
	Agent          string   `json:"agent"`
	SessionID      string   `json:"session_id"`
	ProjectPath    string   `json:"project_path"`
	FirstUTC       string   `json:"first_utc"`
	LastUTC        string   `json:"last_utc"`
	Models         []string `json:"models"` // in order of first use
	UserTurns      int      `json:"user_turns"`
	AssistantTurns int      `json:"assistant_turns"`
	ToolCalls      int      `json:"tool_calls"`
	Events         int      `json:"events"`
	Synced         string   `json:"synced"`    // yes | no | partial | "" (agent records nothing)
	Origin         string   `json:"origin"`    // local | remote | ""
	Relayed        string   `json:"relayed"`   // yes | no | ""
	Recovered      string   `json:"recovered"` // yes | partial | trace | no | ""
	// RecoveredRows counts the session's rows given by records recovered
	// from a store's freed space (rows whose recovered field is set);
	// written only when there are some.
	RecoveredRows int      `json:"recovered_rows,omitempty"`
	BundleID      string   `json:"bundle_id"`
	SourceFiles   []string `json:"source_files"`
	// ParentSessionID is the session a subagent belongs to (or a fork's
	// parent); ForkedFrom the session a fork or a resume-by-copy copied.
	ParentSessionID string `json:"parent_session_id"`
	ForkedFrom      string `json:"forked_from"`
}

// SessionKey identifies a session across rows.
type SessionKey struct{ Host, User, Agent, SessionID string }

// SessionState is what a parser knows about a session beyond its rows:
// sync, origin, relay and recovery state, as the agent records them.
type SessionState struct {
	Key                                SessionKey
	Synced, Origin, Relayed, Recovered string
	// ParentSessionID and ForkedFrom link a subagent to its parent and a
	// fork to the session it copied.
	ParentSessionID, ForkedFrom string
}

// Aggregator folds events into sessions. It keeps one small record per
// session, never the events.
type Aggregator struct {
	m     map[SessionKey]*agg
	order []SessionKey
	// Recoverable, when set, reports whether an agent keeps secondary
	// sources, so a session with only primary rows reads recovered "no".
	Recoverable func(agent string) bool
	// Trace, when set, reports whether a parser's rows only name sessions
	// (parser.Spec.Trace): a session whose every row is such reads
	// recovered "trace", it existed but its store of record is gone.
	Trace func(parser string) bool
	// Unrecorded, when set, reports whether a secondary row of a parser
	// is a typed input the agent never writes to its store of record
	// (parser.Secondary.Unrecorded): it is no turn the store lost.
	Unrecorded func(parser, text string) bool
}

type agg struct {
	s           Session
	first, last time.Time
	// mfirst and mlast span the rows dated by their file's mtime, used
	// only when no row of the session has a time of its own
	mfirst, mlast time.Time
	// modelFirst is the first time of each of s.Models (same index);
	// files indexes s.SourceFiles once a session has more than
	// smallSet of them (a linear scan until then: most sessions have
	// one or two, and a map a session cost a few hundred bytes each).
	modelFirst []time.Time
	files      map[string]bool
	// primary and secondary count the rows written from the store of
	// record and from secondary sources; stateRecovered is what parsers
	// said.
	primary, secondary, secondaryTurns int
	// trace counts the rows of parsers that only name sessions;
	// recovered the rows of records recovered from freed space by other
	// parsers (a recovered row that only names a session is a trace).
	trace, recovered int
	// content counts the turns (rows other than system rows) of parsers
	// that do not only name sessions: a parser's "trace" state (its store
	// lost the session) gives way to "yes" when other files hold them.
	content        int
	stateRecovered string
	// parents are the distinct parent session ids the rows named, in
	// timeline order (at most maxParentsSeen; moreParents counts the rest).
	parents     []ParentSeen
	moreParents int
}

// ParentSeen is one parent session id the rows of a session named, with
// the first row that named it.
type ParentSeen struct {
	Value, SourceFile, BundleID string
	SourceLine                  int64
}

// maxParentsSeen bounds the distinct parents kept per session.
const maxParentsSeen = 16

// NewAggregator returns an empty aggregator.
func NewAggregator() *Aggregator { return &Aggregator{m: map[SessionKey]*agg{}} }

func (a *Aggregator) get(k SessionKey) *agg {
	g := a.m[k]
	if g == nil {
		// The strings a session keeps are copies: a row decoded from the
		// sorter's runs has its short strings in one allocation, which a
		// session's id or path would keep reachable to the end of the run.
		k = SessionKey{strings.Clone(k.Host), strings.Clone(k.User), strings.Clone(k.Agent), strings.Clone(k.SessionID)}
		g = &agg{s: Session{Host: k.Host, User: k.User, Agent: k.Agent, SessionID: k.SessionID, Models: []string{}, SourceFiles: []string{}}}
		a.m[k] = g
		a.order = append(a.order, k)
	}
	return g
}

// smallSet is how many of a session's source files are found by a
// linear scan before they are indexed in a map.
const smallSet = 8

// addFile lists f among the session's source files unless it is listed.
func (g *agg) addFile(f string) {
	if g.files != nil {
		if g.files[f] {
			return
		}
	} else {
		for _, x := range g.s.SourceFiles {
			if x == f {
				return
			}
		}
	}
	f = strings.Clone(f)
	g.s.SourceFiles = append(g.s.SourceFiles, f)
	switch {
	case g.files != nil:
		g.files[f] = true
	case len(g.s.SourceFiles) > smallSet:
		g.files = make(map[string]bool, 2*len(g.s.SourceFiles))
		for _, x := range g.s.SourceFiles {
			g.files[x] = true
		}
	}
}

// Add folds one event in. Events without a session ID are not sessions.
func (a *Aggregator) Add(e *Event) {
	if e.SessionID == "" {
		return
	}
	g := a.get(SessionKey{e.Host, e.User, e.Agent, e.SessionID})
	g.s.Events++
	isTrace := a.Trace != nil && a.Trace(e.Parser)
	if isTrace {
		g.trace++
	}
	if e.Recovered != "" {
		g.s.RecoveredRows++
		if !isTrace {
			g.recovered++
		}
	}
	if !isTrace && e.TurnType != System {
		g.content++
	}
	if e.Secondary {
		g.secondary++
		if e.TurnType != System && (a.Unrecorded == nil || !a.Unrecorded(e.Parser, e.Text)) {
			g.secondaryTurns++
		}
	} else {
		g.primary++
	}
	if g.s.ProjectPath == "" && e.ProjectPath != "" {
		g.s.ProjectPath = strings.Clone(e.ProjectPath)
	}
	if g.s.BundleID == "" && e.BundleID != "" {
		g.s.BundleID = strings.Clone(e.BundleID)
	}
	if e.ParentSessionID != "" {
		g.seeParent(e)
	}
	// An implausible time (year 0, 9999) is kept on its row but never
	// stretches the session's span.
	// A file mtime (a settings row, a file read whole) says when the file
	// last changed, not when the session ran: it spans the session only
	// when nothing else dates it.
	if !e.Time.IsZero() && e.TimeBasis != TimeImplausible {
		first, last := &g.first, &g.last
		if e.TimeBasis == TimeFileMTime {
			first, last = &g.mfirst, &g.mlast
		}
		if first.IsZero() || e.Time.Before(*first) {
			*first = e.Time
		}
		if e.Time.After(*last) {
			*last = e.Time
		}
	}
	if e.Model != "" && (e.TurnType == Assistant || e.TurnType == ToolUse || e.TurnType == Thinking) {
		i := slices.Index(g.s.Models, e.Model) // a session uses few models
		switch {
		case i < 0:
			g.s.Models = append(g.s.Models, strings.Clone(e.Model))
			g.modelFirst = append(g.modelFirst, e.Time)
		case !e.Time.IsZero() && (g.modelFirst[i].IsZero() || e.Time.Before(g.modelFirst[i])):
			g.modelFirst[i] = e.Time
		}
	}
	if e.SourceFile != "" {
		g.addFile(e.SourceFile)
	}
	switch e.TurnType {
	case User:
		g.s.UserTurns++
	case Assistant:
		g.s.AssistantTurns++
	case ToolUse:
		g.s.ToolCalls++
	}
}

func (g *agg) seeParent(e *Event) {
	for _, p := range g.parents {
		if p.Value == e.ParentSessionID {
			return
		}
	}
	if len(g.parents) == maxParentsSeen {
		g.moreParents++
		return
	}
	g.parents = append(g.parents, ParentSeen{Value: strings.Clone(e.ParentSessionID), SourceFile: strings.Clone(e.SourceFile), BundleID: strings.Clone(e.BundleID), SourceLine: e.SourceLine})
}

// RowParents calls fn for every session whose rows named a parent, in the
// order the sessions were first seen, with the distinct values in
// timeline order and how many more distinct values were not kept. The
// aggregator only records them: the correlation pass decides the link
// (SetLinks).
func (a *Aggregator) RowParents(fn func(k SessionKey, seen []ParentSeen, more int)) {
	for _, k := range a.order {
		if g := a.m[k]; len(g.parents) > 0 {
			fn(k, g.parents, g.moreParents)
		}
	}
}

// SetLinks sets a session's parent and fork links as the correlation
// pass decided them.
func (a *Aggregator) SetLinks(k SessionKey, parent, forkedFrom string) {
	g := a.get(k)
	g.s.ParentSessionID, g.s.ForkedFrom = parent, forkedFrom
}

// SetState records what a parser knows of a session's sync, origin, relay
// and recovery state; a non-empty value overrides an empty one. Parent and
// fork links are not taken from it: the correlation pass decides them
// from every file (SetLinks).
func (a *Aggregator) SetState(st SessionState) {
	g := a.get(st.Key)
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&g.s.Synced, st.Synced)
	set(&g.s.Origin, st.Origin)
	set(&g.s.Relayed, st.Relayed)
	set(&g.stateRecovered, st.Recovered)
}

// recovered says where a session's rows came from: "yes" only from
// secondary sources (the store of record lost it), "partial" when
// secondary sources add turns (not merely system rows such as a thread
// record) that the store of record lacks, "no" only from the store of
// record when the agent keeps secondary sources to recover from, "trace"
// when every row comes from parsers that only name sessions, "yes" when
// every row is given by records recovered from a store's freed space (or
// only names the session), "partial" when some are; what a
// parser said (a deletion marker it read) wins when it is stronger (yes >
// partial > no).
func (a *Aggregator) recovered(agent string, g *agg) string {
	v := ""
	switch {
	case g.trace > 0 && g.trace == g.s.Events:
		// Every row only names the session (a prompt history line, a
		// process registry entry, an index): it existed, its store of
		// record is gone.
		v = "trace"
	case g.secondary > 0 && g.primary == 0:
		v = "yes"
	case g.secondaryTurns > 0:
		v = "partial"
	case g.primary > 0 && a.Recoverable != nil && a.Recoverable(agent):
		v = "no"
	}
	// rows recovered from a store's freed space: the session was deleted
	// (yes) when every other row only names it, else it lost records
	// (partial)
	if n := g.recovered; n > 0 {
		w := "partial"
		if n+g.trace == g.s.Events {
			w = "yes"
		}
		if RecoveredRank(w) > RecoveredRank(v) {
			v = w
		}
	}
	st := g.stateRecovered
	if st == "trace" {
		if g.content > 0 {
			// a parser found only a trace of the session in its store (a
			// log line, a header), while other files hold its turns:
			// recovered from them
			st = "yes"
		} else if g.recovered == 0 {
			// nothing but traces: prompts a history names are no turns
			// of a store (they would read partial beside a transcript)
			return "trace"
		}
	}
	if RecoveredRank(st) > RecoveredRank(v) {
		v = st
	}
	return v
}

// RecoveredRank orders recovered values: yes > partial > trace > no >
// "". trace is a session that existed but is gone: only a surviving
// file names it (its rows say which).
func RecoveredRank(v string) int {
	switch v {
	case "yes":
		return 4
	case "partial":
		return 3
	case "trace":
		return 2
	case "no":
		return 1
	}
	return 0
}

// Sessions returns the sessions sorted by first time (undated last), then
// host, user, agent and session ID. Models are in order of first use.
func (a *Aggregator) Sessions() []Session {
	out := make([]Session, 0, len(a.m))
	firsts := map[*Session]time.Time{}
	for _, k := range a.order {
		g := a.m[k]
		s := g.s
		if g.s.Events == 0 && g.s.Synced == "" && g.s.Origin == "" && g.s.Relayed == "" && g.stateRecovered == "" {
			continue
		}
		if g.first.IsZero() {
			g.first, g.last = g.mfirst, g.mlast
		}
		s.FirstUTC, s.LastUTC = FormatTime(g.first), FormatTime(g.last)
		s.Recovered = a.recovered(k.Agent, g)
		first := make(map[string]time.Time, len(s.Models))
		for i, m := range s.Models {
			first[m] = g.modelFirst[i]
		}
		models := append([]string{}, s.Models...) // [] when none, never null
		sortStable(models, func(x, y string) bool {
			tx, ty := first[x], first[y]
			if tx.IsZero() || ty.IsZero() {
				return false
			}
			return tx.Before(ty)
		})
		s.Models = models
		sortStrings(s.SourceFiles)
		out = append(out, s)
		firsts[&out[len(out)-1]] = g.first
	}
	sortStable2(out, func(x, y *Session) bool {
		if (x.FirstUTC == "") != (y.FirstUTC == "") {
			return y.FirstUTC == ""
		}
		if x.FirstUTC != y.FirstUTC {
			return x.FirstUTC < y.FirstUTC
		}
		if x.Host != y.Host {
			return x.Host < y.Host
		}
		if x.User != y.User {
			return x.User < y.User
		}
		if x.Agent != y.Agent {
			return x.Agent < y.Agent
		}
		return x.SessionID < y.SessionID
	})
	return out
}

package correlate

import (
	"github.com/doubleagent/doubleagent/analyzer/engine/problem"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Problem is a row of problems.jsonl.
type Problem = problem.Problem

// Correlator holds what the correlation pass needs of every row parsed:
// an id stub of every row with a record id, the secondary rows and the
// primary rows they may repeat (each in a sorter that spills to disk past
// its budget), and the session states parsers gave. The parse stage adds
// to it (under its own lock: a Correlator is not safe for concurrent
// use); when every input is parsed the engine runs ResolveIdentities,
// then PairSecondaries, then the output pass asks Repeated and a
// DupWindow row by row, and DecideSessions ends it.
type Correlator struct {
	ids    *timeline.SorterOf[idStub]
	pair   *timeline.SorterOf[pairRow]
	losers bitset
	states []stateRec
	// problems found and not yet taken (TakeProblems).
	problems []Problem
	// secondarySpecs are the declared secondary sources by parser ID;
	// pairTypes the turn types each agent's secondary sources can repeat.
	secondarySpecs map[string]*parser.Secondary
	pairTypes      map[string]map[timeline.TurnType]bool
	recoverable    map[string]bool
	// traceParsers are the parsers whose rows only name sessions
	// (parser.Spec.Trace), by parser ID.
	traceParsers map[string]bool
	// Counts for the summary line and the inventory.
	repeatedByID, secondaryByID, secondaryPaired, duplicateIDs int
	// filtered: the run's filters shape the rows, and the repeats counted
	// are only those of rows they keep (kept, by Ord; see Kept).
	filtered bool
	kept     bitset
}

// stateRec is one session state as a parser gave it, with where it came
// from so the merge has a fixed order.
type stateRec struct {
	st   timeline.SessionState
	file string
	seq  int
}

// New makes the Correlator of a run of the parsers ps; its sorters spill
// into tmp past budget bytes each.
func New(ps []parser.Parser, tmp string, budget int64) *Correlator {
	c := &Correlator{
		ids:            timeline.NewSorterOf(tmp, budget, idLess, idSize).WithCodec(idCodec),
		pair:           timeline.NewSorterOf(tmp, budget, pairLess, pairSize).WithCodec(pairCodec),
		secondarySpecs: map[string]*parser.Secondary{}, pairTypes: map[string]map[timeline.TurnType]bool{},
		recoverable: map[string]bool{}, traceParsers: map[string]bool{},
	}
	for _, p := range ps {
		sp, ok := p.(parser.Specced)
		if !ok {
			continue
		}
		if sp.Spec().Trace {
			c.traceParsers[p.ID()] = true
		}
		if sp.Spec().Secondary == nil {
			continue
		}
		sec := sp.Spec().Secondary
		c.secondarySpecs[p.ID()] = sec
		agents := append([]string{p.Agent()}, sp.Spec().Emits...)
		for _, a := range agents {
			c.recoverable[a] = true
			if c.pairTypes[a] == nil {
				c.pairTypes[a] = map[timeline.TurnType]bool{}
			}
			for _, tt := range sec.TurnTypes {
				c.pairTypes[a][tt] = true
			}
		}
	}
	return c
}

// Stub is what the identity merge keeps of a row with a record id.
type Stub = idStub

// StubOf makes the stub of a row with a record id (its Ord is set when
// the row is numbered). It hashes the row's content, so it is made
// outside any lock.
func StubOf(e *timeline.Event) Stub { return stubOf(e) }

// AddStub adds the stub of a numbered row with a record id.
func (c *Correlator) AddStub(s Stub) { c.ids.AddHeld(s) }

// AddSecondary adds a numbered secondary row: it is written only if it
// pairs with no primary row (PairSecondaries).
func (c *Correlator) AddSecondary(e *timeline.Event) { c.pair.AddHeld(pairOf(e, false)) }

// AddPrimary adds what the pairing needs of a numbered primary row, when
// a secondary source of its agent could repeat its turn type.
func (c *Correlator) AddPrimary(e *timeline.Event) {
	if c.pairTypes[e.Agent][e.TurnType] {
		c.pair.AddHeld(pairOf(e, true))
	}
}

// Spiller is a sorter's batch that reached its budget: sorted and
// written as a run (Spill) outside the caller's lock, then handed back
// (PutRun) under it.
type Spiller interface {
	Spill()
	PutRun() error
}

// TakeFull appends the batches of the sorters that reached their budget.
func (c *Correlator) TakeFull(full []Spiller) []Spiller {
	if c.ids.Full() {
		full = append(full, c.ids.TakeFull())
	}
	if c.pair.Full() {
		full = append(full, c.pair.TakeFull())
	}
	return full
}

// AddState adds a session state a parser gave: file names the source
// (path, bundle id and parser id, NUL-separated), seq its order among
// that parser's states of the file.
func (c *Correlator) AddState(st timeline.SessionState, file string, seq int) {
	c.states = append(c.states, stateRec{st: st, file: file, seq: seq})
}

// ResolveIdentities runs step 1: repeats by record id (see the package
// comment).
func (c *Correlator) ResolveIdentities() error { return c.resolveIdentities() }

// PairSecondaries runs step 2 and hands every secondary row that pairs
// with nothing to keep.
func (c *Correlator) PairSecondaries(keep func(e *timeline.Event) error) error {
	return c.pairSecondaries(keep)
}

// Filter makes the repeat counts (Counts: by record id, secondary rows
// paired) count only the rows marked with Kept, so a filtered run's
// summary names only what its filters kept. Identity and pairing still
// run over every row.
func (c *Correlator) Filter() { c.filtered = true }

// Kept marks the numbered row ord as one the run's filters keep.
func (c *Correlator) Kept(ord int64) { c.kept.set(ord) }

// counted reports whether a repeat of the row ord is counted.
func (c *Correlator) counted(ord int64) bool { return !c.filtered || c.kept.has(ord) }

// Repeated reports whether the row numbered ord repeats another by record
// id (ResolveIdentities has counted it): it is not written.
func (c *Correlator) Repeated(ord int64) bool { return c.losers.has(ord) }

// NewAggregator makes the session aggregator of the output pass, told
// which agents' sessions can be recovered from secondary sources and
// which parsers only trace sessions.
func (c *Correlator) NewAggregator() *timeline.Aggregator {
	agg := timeline.NewAggregator()
	agg.Recoverable = func(agent string) bool { return c.recoverable[agent] }
	agg.Trace = func(parserID string) bool { return c.traceParsers[parserID] }
	agg.Unrecorded = func(parserID, text string) bool { return c.secondarySpecs[parserID].IsUnrecorded(text) }
	return agg
}

// DecideSessions ends the pass when every row is written: session states
// merged, each session's parent and fork links decided (see
// decideSessions).
func (c *Correlator) DecideSessions(agg *timeline.Aggregator) { c.decideSessions(agg) }

// TakeProblems returns the problems found since the last call.
func (c *Correlator) TakeProblems() []Problem {
	p := c.problems
	c.problems = nil
	return p
}

// Counts are the pass's counts for the summary and the inventory.
type Counts struct {
	RepeatedByID, SecondaryByID, SecondaryPaired, DuplicateIDs int
}

// Counts returns the counts so far.
func (c *Correlator) Counts() Counts {
	return Counts{c.repeatedByID, c.secondaryByID, c.secondaryPaired, c.duplicateIDs}
}

// DupWindow drops a row without a record id that repeats another by
// full-value keys (see dupWindow).
type DupWindow = dupWindow

// Duplicate reports whether e, the next row in timeline order, repeats
// one already written.
func (d *DupWindow) Duplicate(e *timeline.Event) bool { return d.duplicate(e) }

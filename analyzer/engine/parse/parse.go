package parse

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/engine/problem"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

// Config is what the parse stage is told of the run.
type Config struct {
	// Jobs bounds the files parsed at once across every source.
	Jobs int
	// NoCarve skips the SQLite carver (parser.Input.NoCarve).
	NoCarve bool
	// StoreRows and StoreTime bound the parse of one SQLite store (0:
	// DefaultStoreRows, DefaultStoreTime); see budget.go.
	StoreRows int64
	StoreTime time.Duration
	// Started is when the run began: the plausible window's end for a
	// source with no collection time (a loose tree).
	Started time.Time
	// Tmp is the run's private temporary folder (SQLite copies).
	Tmp string
	// Parsers is the registry: their Spec.Actions tables name tool rows'
	// actions.
	Parsers []parser.Parser
}

// Source is an opened unit (a bundle, an extracted collection, a loose
// tree) as the parse stage reads it.
type Source interface {
	// Input names the input as given, for problem rows.
	Input() string
	// Loose reports a tree read in place: its rows carry verified "".
	Loose() bool
	// TimeRef is the time the plausible window of the source's rows
	// ends a day after (the collection's start, else run).
	TimeRef(run time.Time) time.Time
}

// File is one collected file of a source.
type File interface {
	// Meta is the file as parsers see it.
	Meta() *parser.File
	// Verified reports that its bytes matched the manifest and the
	// collector did not see it change while copying it.
	Verified() bool
	// Open returns its content.
	Open() (io.ReadCloser, error)
	// ParserInput builds its parser.Input, tmp holding any SQLite copy;
	// done releases what the parse opened.
	ParserInput(tmp string) (in *parser.Input, done func())
}

// Store receives what the parsers give (the sorter, the correlator, the
// row filters of the run). Both methods are called from many goroutines.
type Store interface {
	// AddRows stores a batch of one file's rows; it copies what it keeps.
	AddRows(rows []timeline.Event, input string) error
	// AddState stores a session state: from names the file, bundle and
	// parser that gave it, n counts the states they gave so far.
	AddState(st timeline.SessionState, from string, n int)
}

// Result is what became of the records of one file one parser read.
type Result struct {
	// Rows counts the rows it gave, Records the distinct positions
	// (line, rowid, array index) that gave a row, a skip or a problem,
	// Skipped the records skipped by reason, Problems its problem rows.
	Rows, Records, Problems int
	Skipped                 map[string]int
}

// Stage is the parse stage of one run.
type Stage struct {
	cfg   Config
	store Store
	// sem bounds the files parsed at once across all sources (Jobs).
	sem chan struct{}
	// actions are the Spec.Actions tables of every parser writing an
	// agent's rows.
	actions map[string][]map[string]timeline.Action

	mu       sync.Mutex
	problems []problem.Problem
	// probAt indexes the parsers' problems by what they say about a file
	// (see sink.Report), so two parsers of one file saying the same give
	// one row.
	probAt map[problemKey]int
}

// New returns the parse stage of a run writing into store.
func New(cfg Config, store Store) *Stage {
	st := &Stage{cfg: cfg, store: store, sem: make(chan struct{}, max(cfg.Jobs, 1)), actions: map[string][]map[string]timeline.Action{}}
	for _, p := range cfg.Parsers {
		sp, ok := p.(parser.Specced)
		if !ok {
			continue
		}
		if t := sp.Spec().Actions; t != nil {
			for _, a := range append([]string{p.Agent()}, sp.Spec().Emits...) {
				st.actions[a] = append(st.actions[a], t)
			}
		}
	}
	return st
}

// TakeProblems returns the stage's problem rows and forgets them.
func (st *Stage) TakeProblems() []problem.Problem {
	st.mu.Lock()
	defer st.mu.Unlock()
	ps := st.problems
	st.problems, st.probAt = nil, nil
	return ps
}

// action names what a tool row's call does, from the tables of the
// parsers that write the agent's rows; "other" when none names the tool.
func (st *Stage) action(agent, tool string) timeline.Action {
	for _, t := range st.actions[agent] {
		if a, ok := parser.ActionFor(t, tool); ok {
			return a
		}
	}
	return timeline.ActOther
}

// Files parses the files of src, in path order, each with every parser
// route names, and calls done (from the parsing goroutine) with what each
// parser made of each file. Files are parsed in parallel, at most Jobs at
// once across every call, so one big bundle uses every core too. Output
// order does not depend on it: rows are sorted on content. It returns
// when every parse it started has ended.
func (st *Stage) Files(ctx context.Context, src Source, files []File, route func(*parser.File) []parser.Parser, done func(File, parser.Parser, Result)) {
	files = append([]File(nil), files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Meta().Path < files[j].Meta().Path })
	var wg sync.WaitGroup
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		st.Start(ctx, src, f, route, done, &wg)
	}
	wg.Wait()
}

// Start starts parsing one file of src with every parser route names, as
// Files does for each of its files, and returns once each parse has a
// slot (at most Jobs run at once across every call); wg counts the
// parses until they end. A bundle member parsed from the stream
// (inputs.Source.Stream) comes this way, one at a time.
func (st *Stage) Start(ctx context.Context, src Source, f File, route func(*parser.File) []parser.Parser, done func(File, parser.Parser, Result), wg *sync.WaitGroup) {
	m := f.Meta()
	if why := notSQLite(f); why != "" {
		st.add(problem.Problem{Host: m.Host, BundleID: m.BundleID, Input: src.Input(), SourceFile: m.Path, Agent: m.Agent, Kind: KindNotSQLite, Message: why})
		return
	}
	for _, p := range route(m) {
		st.sem <- struct{}{}
		wg.Add(1)
		go func(f File, p parser.Parser) {
			defer func() { <-st.sem; wg.Done() }()
			r := st.parseOne(ctx, src, f, p)
			if done != nil {
				done(f, p, r)
			}
		}(f, p)
	}
}

func (st *Stage) add(p problem.Problem) {
	st.mu.Lock()
	st.problems = append(st.problems, p)
	st.mu.Unlock()
}

// KindNotSQLite is the problem kind for a file the catalog calls a SQLite
// store that is not one: no parser meets it.
const KindNotSQLite = "not_sqlite"

// sqliteMagic opens every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// notSQLite says why a file the catalog calls a SQLite store is not one
// ("" when it is, or is empty, which SQLite reads as an empty database), so
// no parser meets it and the examiner is told rather than left with no rows.
func notSQLite(f File) string {
	m := f.Meta()
	if m.Kind != catalog.KindSQLite || m.Size == 0 {
		return ""
	}
	for _, suf := range catalog.Sidecars {
		if strings.HasSuffix(m.Path, suf) {
			return ""
		}
	}
	rc, err := f.Open()
	if err != nil {
		return "cannot open: " + err.Error()
	}
	defer rc.Close()
	head := make([]byte, len(sqliteMagic))
	n, _ := io.ReadFull(rc, head)
	if n < len(head) || !bytes.Equal(head, sqliteMagic) {
		return fmt.Sprintf("not a SQLite database (first bytes %q): not parsed", head[:n])
	}
	return ""
}

// parseOne runs one parser on one file and accounts for what it gave.
func (st *Stage) parseOne(ctx context.Context, s Source, f File, p parser.Parser) Result {
	m := f.Meta()
	ctx, bud := newBudget(ctx, m, &st.cfg)
	defer bud.end()
	sk := &sink{st: st, input: s.Input(), loose: s.Loose(), file: m, verified: f.Verified(), parser: p, bud: bud, buf: getBatch(), ref: s.TimeRef(st.cfg.Started)}
	if v, ok := f.(interface{ VerdictToken() string }); ok {
		sk.token = v.VerdictToken()
	}
	defer func() { putBatch(sk.buf); sk.buf = nil }()
	in, release := f.ParserInput(st.cfg.Tmp)
	in.NoCarve = st.cfg.NoCarve
	func() {
		defer func() {
			if r := recover(); r != nil {
				sk.Problem(0, fmt.Sprintf("parser %s panicked: %v\n%s", p.ID(), r, firstLines(string(debug.Stack()), 12)))
			}
		}()
		if err := p.Parse(ctx, in, sk); err != nil && bud.exceeded() == "" {
			sk.Problem(0, "parse stopped: "+err.Error())
		}
	}()
	if msg := bud.exceeded(); msg != "" {
		sk.bud = nil // the problem row itself is not counted
		sk.Report(0, KindStoreBudget, msg)
	}
	sk.bud = nil
	sk.implausibleProblem()
	sk.flush()
	if release != nil {
		release()
	}
	if sk.err != nil {
		sk.Problem(0, "could not store events: "+sk.err.Error())
	}
	skipped := sk.acct.skipped
	if skipped == nil {
		skipped = map[string]int{}
	}
	return Result{Rows: sk.acct.rows, Records: sk.acct.n, Problems: sk.probs, Skipped: skipped}
}

// batches recycles the event batches sinks hand over (the Store copies
// the events it keeps), so parsing a file does not allocate a fresh one.
var batches = sync.Pool{New: func() any { b := make([]timeline.Event, 0, batchLen); return &b }}

const batchLen = 256

func getBatch() []timeline.Event { return (*batches.Get().(*[]timeline.Event))[:0] }

func putBatch(b []timeline.Event) {
	if cap(b) != batchLen {
		return
	}
	clear(b[:cap(b)])
	b = b[:0]
	batches.Put(&b)
}

func firstLines(s string, n int) string {
	ls := strings.SplitN(s, "\n", n+1)
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "\n")
}

// settingRow reports whether a system row restates a setting (a
// standing rule can embed a token, which is masked).
func settingRow(text string) bool {
	for _, p := range []string{"permission setting:", "permission grant:", "model setting:", "session retention:", "retention setting:", "control surface:", "mcp server:", "hook audit:"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

package analyze

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/engine/correlate"
	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
	"github.com/doubleagent/doubleagent/analyzer/engine/outputs"
	"github.com/doubleagent/doubleagent/analyzer/engine/parse"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/rs/zerolog"
)

// Options configure a timeline run.
type Options struct {
	Inputs []string
	OutDir string
	// Format of the timeline, comma-separated (see ParseFormats): jsonl
	// (timeline.jsonl), csv (timeline.csv), timesketch
	// (timeline.timesketch.jsonl), parquet (timeline.parquet), bodyfile
	// (collection.bodyfile, the mactime bodyfile of every collected file).
	Format string
	// PartitionByHost lays the timeline out for a data lake: the Parquet
	// timeline Hive-partitioned by case, host and UTC day
	// (timeline.parquet/case=C/host=H/day=D/part-0.parquet) and the
	// Timesketch timeline one file per host (timeline.timesketch/H.jsonl).
	PartitionByHost bool
	// Since and Until bound dated rows (UTC, inclusive); zero = open.
	Since, Until time.Time
	Agents       []string
	Users        []string
	Hosts        []string
	// Match keeps rows whose text, tool input or tool name matches, plus
	// the call or result paired with each.
	Match *regexp.Regexp
	// TurnTypes keeps only these turn types; Hide drops these; Sessions
	// keeps only these session ids; Actions keeps only tool rows with
	// these actions.
	TurnTypes, Hide, Sessions, Actions []string
	IncludeThinking                    bool
	KeepUndated                        bool
	Jobs                               int
	// NoCarve skips the SQLite carver (no rows from the freed space of
	// agents' SQLite stores): a quicker run.
	NoCarve bool
	// TempDir holds the private temporary folder (default os.TempDir()).
	TempDir string
	// Parsers is the registry (analyzer/parsers.All()).
	Parsers []parser.Parser
	// Limits bound bundle decompression.
	Limits *bundle.Options
	// Progress, when set, is called as sources finish.
	Progress func(done, total int, input string)
	Log      zerolog.Logger
	// MemLimit bounds the events held in memory before spilling (bytes).
	MemLimit int64
	// Force replaces a previous run's files in OutDir (else such a folder
	// is refused with ErrOutputInUse).
	Force bool
	// CommandLine and ToolVersion are recorded in run.json.
	CommandLine []string
	ToolVersion string
	// StoreRows and StoreTime bound the parse of one SQLite store (0:
	// DefaultStoreRows, DefaultStoreTime); see analyzer/engine/parse/budget.go.
	StoreRows int64
	StoreTime time.Duration
	// Rows, when set, sees every row the timeline holds, in timeline
	// order, as the output pass writes it, whatever the formats (the
	// findings: analyzer/findings.Runner).
	Rows RowConsumer
}

// Summary is what a run found.
type Summary struct {
	Events   int
	Sessions int
	Problems int
	// Duplicates counts rows dropped because another row is the same
	// record (RepeatedByID + RepeatedNoID; see output.md).
	Duplicates int
	// RepeatedByID: rows whose record id and content another row had;
	// RepeatedNoID: rows without an id repeating another by full value.
	RepeatedByID, RepeatedNoID int
	// SecondaryPaired counts secondary rows dropped because they paired
	// with the primary row they repeat.
	SecondaryPaired int
	// DuplicateIDs counts record ids seen with more than one content.
	DuplicateIDs int
	// Undated counts rows written without a time; UndatedDropped those
	// left out by --since/--until.
	Undated, UndatedDropped int
	// Hidden counts, per turn type, the rows the turn-type filters left
	// out: thinking rows without --include-thinking, --hide, --turn-type
	// (rows as parsed, before repeats are merged).
	Hidden map[string]int
	// IncludeThinking is --include-thinking: thinking rows are then
	// hidden only by --hide/--turn-type, which the hidden-rows line says.
	IncludeThinking bool
	// Sources counts the inputs read or tried (bundles, extracted
	// collections, loose trees); Failed the unusable inputs, those found
	// unusable before reading included; Inputs lists every input given
	// and every evidence-shaped entry of a folder given (inputs.go).
	Sources int
	Failed  int
	Inputs  []InputStatus
	// CutShort names the bundles read only in part: cut short or
	// corrupt, read as far as they go (a truncated problem names the
	// member where each stops), sorted.
	CutShort []string
	// CutShortUnnamed counts bundles read only in part that CutShort does
	// not name (a merge: the shards' run.json count them, its inputs do
	// not say which).
	CutShortUnnamed int
	// Unproven names, sorted, each bundle that failed a check of the
	// file as a whole, with what failed: its .sha256 sidecar names
	// another hash or cannot be read (every row of it is verified:false),
	// or data after its archive's end (an appended bundle) was not read.
	// Its rows are written; the summary names it and the exit status is
	// 3, as for a bundle read only in part.
	Unproven       []string
	UnprovenInputs int
	// Filtered is set when a filter (--agent, --since, --session, ...)
	// shaped the rows: the summary then names only what it kept.
	Filtered bool
	// NotFollowed lists, per loose input, the messages of its unsafe_path
	// problems (a link not followed, a home behind a link in an image):
	// what the walk never reached, named in the summary beside "nothing
	// of any agent", never left to problems.jsonl alone.
	NotFollowed map[string][]string
	// FollowedOutside lists, per loose input, the messages of its
	// link_outside_homes problems: links followed to a folder outside
	// every home, named in the summary.
	FollowedOutside map[string][]string
	Inventory       *Inventory
	Files           []string // output files written
}

// UnknownNameError says a --host, --user or --agent filter names nothing
// the input holds, and what it does hold.
type UnknownNameError struct {
	Flag  string   // "--host", "--user", "--agent"
	Names []string // the values not held
	Held  []string // every value the input holds
}

func (e *UnknownNameError) Error() string {
	held := "nothing"
	if len(e.Held) > 0 {
		held = strings.Join(e.Held, ", ")
	}
	return fmt.Sprintf("%s %s: not in the input; it holds %s", e.Flag, strings.Join(e.Names, ", "), held)
}

// ErrNoInput is returned when no input could be used at all, with the
// Summary of the outputs still written (no rows, the problems naming why).
var ErrNoInput = errors.New("no usable input")

type collected struct {
	mu      sync.Mutex
	primary *timeline.Sorter
	// corr holds what the correlation pass needs of every row (the
	// correlate stage).
	corr *correlate.Correlator
	// rowFilter holds the row filters (--agent, --since, --match, ...).
	rowFilter
	ord int64
	// parse is the parse stage (engine/parse), which hands rows and
	// session states to the collection (AddRows, AddState).
	parse    *parse.Stage
	problems []Problem
	inv      *Inventory
	// cutShort names the bundles read only in part (Summary.CutShort),
	// unproven the bundles failing a whole-file check (Summary.Unproven).
	cutShort       []string
	unproven       []string
	unprovenInputs int
	// bodyEntries are the manifest rows of every input, for the bodyfile.
	bodyEntries []outputs.BodyEntry
	// verdicts decide the verified of rows parsed from a bundle's stream
	// (inputs.Verdicts), resolved in the output pass; spooled names the
	// bundles read with every member spooled, respool those whose
	// speculation failed in this run (runUnit).
	verdicts *inputs.Verdicts
	spooled  map[string]bool
	respool  []string
}

// fileKey names one source file of one input.
type fileKey struct{ host, bundleID, input, file, agent string }

func newCollected(tmp string, opts *Options, started time.Time) *collected {
	c := &collected{
		primary:   timeline.NewSorter(tmp, opts.MemLimit),
		corr:      correlate.New(opts.Parsers, tmp, secondaryMemLimit(opts.MemLimit)),
		rowFilter: rowFilter{opts: opts, matchIDs: map[string]bool{}, undatedDropped: map[fileKey]int{}, sessions: newSessionFilter(opts.Sessions)},
		inv:       newInventory(),
		verdicts:  &inputs.Verdicts{},
	}
	if filtered(opts) {
		c.corr.Filter()
	}
	c.parse = parse.New(parse.Config{Jobs: opts.Jobs, NoCarve: opts.NoCarve, StoreRows: opts.StoreRows, StoreTime: opts.StoreTime,
		Started: started, Tmp: tmp, Parsers: opts.Parsers}, c)
	return c
}

// AddState stores a session state a file gave (parse.Store).
func (c *collected) AddState(st timeline.SessionState, from string, n int) {
	c.mu.Lock()
	c.corr.AddState(st, from, n)
	c.mu.Unlock()
}

// stubPool holds AddRows' slices of id stubs, one a batch of rows: made
// anew each batch they were a tenth of a run's allocated bytes.
var stubPool = sync.Pool{New: func() any { s := make([]correlate.Stub, 0, 512); return &s }}

// AddRows stores a batch of one file's events under one lock
// (parse.Store); hashes and the regular expression are computed before
// taking it.
func (c *collected) AddRows(evs []timeline.Event, input string) error {
	sp := stubPool.Get().(*[]correlate.Stub)
	stubs := (*sp)[:0]
	defer func() {
		clear(stubs) // the strings go with the rows
		if cap(stubs) <= 1<<14 {
			*sp = stubs[:0]
			stubPool.Put(sp)
		}
	}()
	var matched []bool
	if c.opts.Match != nil {
		matched = make([]bool, len(evs))
	}
	// In a filtered run the repeats counted are those of the rows the
	// filters keep (correlate.Correlator.Kept); with --match, a row whose
	// own text, tool input or tool name matches.
	countKept := filtered(c.opts)
	for i := range evs {
		e := &evs[i]
		if e.RecordID != "" {
			stubs = append(stubs, correlate.StubOf(e)) // Ord set below
		}
		if c.opts.Match != nil && (e.ToolUseID != "" || countKept) {
			matched[i] = c.matches(e)
		}
	}
	// Values are added under the lock; a sorter that reaches its budget
	// hands its values over, and they are sorted and written as a run
	// after the lock is released, so one worker's spill never stalls the
	// others.
	var full []correlate.Spiller
	c.mu.Lock()
	k := 0
	for i := range evs {
		e := &evs[i]
		c.ord++
		e.Ord = c.ord
		if e.RecordID != "" {
			stubs[k].Ord = e.Ord
			c.corr.AddStub(stubs[k])
			k++
		}
		if e.Secondary {
			c.corr.AddSecondary(e)
			if countKept {
				// kept is counted when an unpaired one joins the timeline
				if ok, _ := c.verdict(e); ok && (c.opts.Match == nil || matched[i]) {
					c.corr.Kept(e.Ord)
				}
			}
			continue
		}
		c.corr.AddPrimary(e)
		if !c.keep(e, input) {
			continue
		}
		if countKept && (c.opts.Match == nil || matched[i]) {
			c.corr.Kept(e.Ord)
		}
		if matched != nil && matched[i] && e.ToolUseID != "" {
			c.matchIDs[matchKey(e)] = true
		}
		c.primary.AddHeld(*e)
	}
	if c.primary.Full() {
		full = append(full, c.primary.TakeFull())
	}
	full = c.corr.TakeFull(full)
	c.mu.Unlock()
	if len(full) == 0 {
		return nil
	}
	for _, b := range full {
		b.Spill()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range full {
		if err := b.PutRun(); err != nil {
			return err
		}
	}
	return nil
}

// Timeline runs the analysis and writes the outputs into opts.OutDir.
func Timeline(ctx context.Context, opts Options) (*Summary, error) {
	formats, err := opts.defaults()
	if err != nil {
		return nil, err
	}
	started := time.Now().UTC()
	if err := checkPaths(opts.OutDir, opts.Inputs); err != nil {
		return nil, err
	}
	if err := prepareOutDir(opts.OutDir, opts.Force); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(opts.TempDir, "doubleagent-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	x, err := findUnits(ctx, opts.Inputs, tmp)
	if err != nil {
		return nil, err
	}
	units := x.Units
	// With no usable input the run still writes its outputs (no rows; the
	// problems naming every input, run.json listing each as unusable), so
	// a shard of a fleet, or a case of damaged bundles, is accounted for;
	// the error (ErrNoInput) is returned with the summary.
	var noInput error
	if len(units) == 0 {
		noInput = fmt.Errorf("%w: %s", ErrNoInput, problemText(x.Problems))
	}
	rt := inputs.NewRouter(opts.Parsers)
	rt.KeepManifest = slices.Contains(formats, FormatBodyfile)
	rt.Loose = inputs.NewLooseLabels(opts.Log, opts.Hosts, opts.Users, opts.Agents)
	sum := &Summary{Sources: len(units), Filtered: filtered(&opts), IncludeThinking: opts.IncludeThinking}
	// Bundle members are parsed as the bundle is read; when a bundle's
	// manifest then contradicts what they were parsed as, their rows are
	// already mixed with every other input's, so the run starts again with
	// that bundle spooled (inputs.Speculation; a hostile or damaged bundle
	// costs a second run, a good one nothing).
	spooled := map[string]bool{}
	var c *collected
	var fails []error
	for {
		ctmp, err := os.MkdirTemp(tmp, "run-*")
		if err != nil {
			return nil, err
		}
		c = newCollected(ctmp, &opts, started)
		c.spooled = spooled
		c.problems = append(c.problems, x.Problems...)
		fails = parseUnits(ctx, units, ctmp, rt, c, &opts)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if len(c.respool) == 0 {
			break
		}
		for _, in := range c.respool {
			spooled[in] = true
		}
		os.RemoveAll(ctmp) // the withdrawn run's sorted runs
	}
	c.problems = append(c.problems, c.parse.TakeProblems()...)
	sum.Inputs = accountInputs(x, units, fails, c.inv)
	sum.CutShort = slices.Sorted(slices.Values(c.cutShort))
	sum.Unproven, sum.UnprovenInputs = slices.Sorted(slices.Values(c.unproven)), c.unprovenInputs
	for _, st := range sum.Inputs {
		if st.Status == InputUnusable {
			sum.Failed++
		}
	}
	if noInput == nil && countFailed(fails) == len(units) {
		noInput = fmt.Errorf("%w: every input failed: %s", ErrNoInput, problemText(c.problems))
	}
	opts.Log.Debug().Dur("elapsed", time.Since(started)).Msg("parsed every input")
	if noInput == nil { // with no input read, no name can be in it
		if err := c.inv.checkNames(&opts); err != nil {
			return nil, err
		}
	}
	if err := c.correlate(); err != nil {
		return nil, err
	}
	opts.Log.Debug().Dur("elapsed", time.Since(started)).Msg("correlation pass done")
	if err := writeOutputs(c, &opts, formats, sum); err != nil {
		return nil, err
	}
	opts.Log.Debug().Dur("elapsed", time.Since(started)).Msg("outputs written")
	if err := writeRunRecord(&opts, formats, sum, started); err != nil {
		return nil, err
	}
	return sum, noInput
}

// defaults fills in the options not given and returns the formats asked
// for (--format), parsed once for the run.
func (o *Options) defaults() ([]string, error) {
	if o.Jobs <= 0 {
		o.Jobs = runtime.NumCPU()
	}
	if o.Format == "" {
		o.Format = FormatJSONL
	}
	if o.Limits == nil {
		o.Limits = DefaultLimits()
	}
	return ParseFormats(o.Format)
}

// findUnits copies stream inputs into tmp and expands the inputs into
// the units to read (a bundle, an extracted collection, a loose tree),
// each stream named as given.
func findUnits(ctx context.Context, given []string, tmp string) (*inputs.Expansion, error) {
	paths, err := spoolStreams(ctx, given, tmp)
	if err != nil {
		return nil, err
	}
	x := inputs.Expand(paths)
	label := func(p string) string {
		for j, in := range paths {
			if p == in && in != given[j] {
				return given[j] // a stream: name it as given
			}
		}
		return ""
	}
	for i := range x.Units {
		x.Units[i].Label = label(x.Units[i].Path)
	}
	return x, nil
}

// parseUnits reads every input, opts.Jobs at once, and returns why each
// that could not be read failed (nil for the others).
func parseUnits(ctx context.Context, units []unit, tmp string, rt *inputs.Router, c *collected, opts *Options) []error {
	fails := make([]error, len(units))
	var wg sync.WaitGroup
	work := make(chan int)
	var doneMu sync.Mutex
	done := 0
	for w := 0; w < opts.Jobs && w < len(units); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				u := units[i]
				err := runUnit(ctx, u, tmp, rt, c, opts)
				doneMu.Lock()
				done++
				var re *respoolError
				if errors.As(err, &re) {
					c.mu.Lock()
					c.respool = append(c.respool, u.Path)
					c.mu.Unlock()
					opts.Log.Debug().Str("input", u.Path).Str("why", re.why).Msg("bundle read again with every member spooled")
					err = nil
				}
				if err != nil {
					err = inputs.WrongKey(err, len(opts.Limits.Identities))
					fails[i] = err
					c.mu.Lock()
					c.problems = append(c.problems, inputs.UnusableProblem(u.Path, err))
					c.mu.Unlock()
					opts.Log.Error().Str("input", u.Path).Err(err).Msg("input could not be read; continuing with the others")
				}
				if opts.Progress != nil {
					opts.Progress(done, len(units), u.Path)
				}
				doneMu.Unlock()
			}
		}()
	}
	for i := range units {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	return fails
}

// correlate runs the correlation pass before the output pass: repeats
// by record id, then secondary rows paired with the primary rows they
// repeat; the secondary rows that pair with nothing join the timeline.
func (c *collected) correlate() error {
	err := c.corr.ResolveIdentities()
	c.problems = append(c.problems, c.corr.TakeProblems()...)
	if err != nil {
		return err
	}
	if err := c.corr.PairSecondaries(func(e *timeline.Event) error {
		ev := *e
		if !c.keep(&ev, "") {
			return nil
		}
		if c.opts.Match != nil && ev.ToolUseID != "" && c.matches(&ev) {
			c.matchIDs[matchKey(&ev)] = true
		}
		return c.primary.Add(ev)
	}); err != nil {
		return err
	}
	// After the secondary rows, so a session only they recovered counts.
	return c.sessions.check()
}

// DefaultLimits bound what the analyzer decompresses and spools from one
// bundle: 16 GiB for one member, 1 TiB in all. A member can never yield
// more than its header declares, so these bound a decompression bomb's
// time and disk; there is no ratio check by default (real evidence can be
// preallocated files of NULs).
func DefaultLimits() *bundle.Options {
	return &bundle.Options{MaxMemberSize: 16 << 30, MaxTotalSize: 1 << 40}
}

// DefaultMemLimit is the figure the soft memory target is sized from
// (SoftMemoryLimit: 12 times it, 192 MiB). The sorters' own budgets, with
// none given, follow that target (timeline.TargetBudget: 8 MiB for the
// events under 192 MiB): small on purpose, since the runs are cheap to
// write and merge, and a run's memory then stays flat whatever the input.
const DefaultMemLimit = 16 << 20

// secondaryMemLimit is the in-memory budget of each of the correlator's
// sorters (record id stubs, secondary rows): a quarter of the main one,
// never less than 1 MiB. With no budget given the main one is the
// sorter's own default from the soft memory target (timeline.TargetBudget:
// 8 MiB under the command line's 192 MiB, so 2 MiB here; more under a
// larger GOMEMLIMIT), not a fixed figure.
func secondaryMemLimit(memLimit int64) int64 {
	if memLimit <= 0 {
		memLimit = timeline.TargetBudget()
	}
	return max(memLimit/4, 1<<20)
}

// SoftMemoryLimit sets the Go runtime's soft memory limit for a run unless
// GOMEMLIMIT (or an earlier call) set one, and returns a function that puts
// the previous limit back. The data a run holds live is bounded (events
// past MemLimit spill to disk; a file is read a line at a time), but with
// the default GOGC the heap grows to twice the live data and more between
// collections, which made peak RSS track the garbage of the biggest
// transcript rather than what is live. The limit is a target, not a cap:
// a run that truly needs more still gets it.
//
// The command line sets it for the whole process (the findings and the
// report read the timeline after the engine, long rows included).
func SoftMemoryLimit(memLimit int64) func() {
	prev := debug.SetMemoryLimit(-1)
	if os.Getenv("GOMEMLIMIT") != "" || prev != math.MaxInt64 {
		return func() {}
	}
	if memLimit <= 0 {
		memLimit = DefaultMemLimit
	}
	// 192 MiB by default: the live heap is small (the sorters' budgets,
	// one long line and its row while they are parsed and written), and a
	// target near it keeps the garbage of a 50 MB tool output from
	// doubling the peak (large benchmark: 302 MB at 512 MiB, 237 MB at
	// 192 MiB, the same CPU).
	debug.SetMemoryLimit(max(192<<20, 12*memLimit))
	return func() { debug.SetMemoryLimit(prev) }
}

func problemText(ps []Problem) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Input+": "+p.Message)
	}
	if len(s) == 0 {
		return "nothing given"
	}
	return strings.Join(s, "; ")
}

// runUnit opens one unit as a source (the inputs stage) and parses its
// files (the parse stage).
func runUnit(ctx context.Context, u unit, tmp string, rt *inputs.Router, c *collected, opts *Options) error {
	// A bundle's members one streamable parser reads are parsed as the
	// bundle is read (inputs.Speculation); what they gave the inventory
	// waits for the source's facts. A bundle whose speculation failed is
	// read again spooled, in a run of its own (errRespool).
	type parsed struct {
		f parse.File
		p parser.Parser
		r parse.Result
	}
	var held []parsed
	var heldMu sync.Mutex
	var wg sync.WaitGroup
	var sp *inputs.Speculation
	if u.Kind == inputs.KindBundle && !c.spooled[u.Path] {
		hold := func(f parse.File, p parser.Parser, r parse.Result) {
			heldMu.Lock()
			held = append(held, parsed{f, p, r})
			heldMu.Unlock()
		}
		sp = &inputs.Speculation{Verdicts: c.verdicts, Label: u.Label, Wait: wg.Wait,
			Parse: func(s *inputs.Source, f *inputs.File, wait bool) {
				if !wait {
					c.parse.Start(ctx, s, f, s.RouteFunc(rt), hold, &wg)
					return
				}
				var one sync.WaitGroup
				c.parse.Start(ctx, s, f, s.RouteFunc(rt), hold, &one)
				one.Wait()
			}}
	}
	s, err := inputs.OpenParsing(ctx, u, tmp, rt, opts.Limits, sp)
	wg.Wait()
	if sp != nil && sp.Failed() != "" {
		if s != nil {
			s.Close()
		}
		return &respoolError{input: u.Path, why: sp.Failed()}
	}
	if err != nil {
		if sp != nil && ctx.Err() == nil {
			// Rows of members parsed from the stream are in the store
			// already: withdrawn by reading the bundle again spooled, which
			// fails as this read did, with no row of it.
			if s != nil {
				s.Close()
			}
			return &respoolError{input: u.Path, why: "it could not be read: " + err.Error()}
		}
		return err
	}
	defer s.Close()
	if u.Label != "" {
		s.Label(u.Label)
	}
	facts := s.Facts()
	c.mu.Lock()
	c.problems = append(c.problems, s.Problems()...)
	if facts.CutShort {
		c.cutShort = append(c.cutShort, facts.Input)
	}
	if u := unprovenLines(facts.Input, s.Problems()); len(u) > 0 {
		c.unproven = append(c.unproven, u...)
		c.unprovenInputs++
	}
	c.inv.addSource(&facts)
	for _, e := range s.TakeManifest() {
		c.bodyEntries = append(c.bodyEntries, outputs.BodyEntryOf(facts.Host, e))
	}
	for _, h := range held {
		c.inv.addParsed(&facts, h.f.(*inputs.File), h.p, h.r)
	}
	c.mu.Unlock()
	eager := s.Eager()
	files := make([]parse.File, len(eager))
	for i, f := range eager {
		files[i] = f
	}
	c.parse.Files(ctx, s, files, s.RouteFunc(rt), func(f parse.File, p parser.Parser, r parse.Result) {
		c.mu.Lock()
		c.inv.addParsed(&facts, f.(*inputs.File), p, r)
		c.mu.Unlock()
	})
	if late := s.LateProblems(); len(late) > 0 {
		c.mu.Lock()
		c.problems = append(c.problems, late...)
		c.mu.Unlock()
	}
	return ctx.Err()
}

// respoolError is a bundle whose members parsed from the stream must be
// withdrawn (inputs.Speculation): the run starts again with it spooled.
type respoolError struct{ input, why string }

func (e *respoolError) Error() string { return e.input + ": read again spooled: " + e.why }

// spoolStreams copies inputs that are streams (a pipe such as /dev/stdin,
// a character device) into the private temporary folder, since telling
// what an input is reads its first bytes and a stream cannot be read twice.
// A stream is opened non-blocking (a FIFO no one writes to is then an
// empty stream, not a run blocked for ever), spooled only when it starts
// with a zstd frame (/dev/zero is not copied until the disk is full), and
// copied only while ctx lasts (SIGINT and SIGTERM stop it).
func spoolStreams(ctx context.Context, paths []string, tmp string) ([]string, error) {
	out := make([]string, len(paths))
	for i, in := range paths {
		out[i] = in
		fi, err := os.Stat(in)
		if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) == 0 {
			continue
		}
		f, err := os.OpenFile(in, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		stop := context.AfterFunc(ctx, func() { f.Close() })
		head := make([]byte, bundle.SniffLen) // zstd, or age (encrypted)
		n, _ := io.ReadFull(f, head)
		if !bundle.Sniff(head[:n]) {
			stop()
			f.Close()
			continue // not a bundle stream: detectInput says so
		}
		dst := filepath.Join(tmp, fmt.Sprintf("stream-%d.tar.zst", i))
		w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			stop()
			f.Close()
			return nil, err
		}
		_, cerr := w.Write(head[:n])
		if cerr == nil {
			_, cerr = io.Copy(w, f)
		}
		stop()
		f.Close()
		if err := w.Close(); cerr == nil {
			cerr = err
		}
		if ctx.Err() != nil {
			cerr = ctx.Err()
		}
		if cerr != nil {
			return nil, fmt.Errorf("read %s: %w", in, cerr)
		}
		out[i] = dst
	}
	return out, nil
}

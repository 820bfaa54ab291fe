package analyze

import (
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/engine/correlate"
	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
	"github.com/doubleagent/doubleagent/analyzer/engine/outputs"
	"github.com/doubleagent/doubleagent/analyzer/engine/parse"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
)

// Inventory is inventory.json: per host and agent, what was there and
// what came of it.
type Inventory struct {
	Sources []InventorySource `json:"sources"`
	Agents  []InventoryAgent  `json:"agents"`
	// Files accounts for every file a parser read: records read, rows
	// written by the parser, records skipped by reason.
	Files []InventoryFile `json:"files"`
	// Parsers are the registered parsers of the run, by id, with the
	// version whose rows this output holds.
	Parsers []InventoryParser `json:"parsers"`
	agents  map[string]*InventoryAgent
}

// InventoryParser is one registered parser.
type InventoryParser struct {
	ID      string `json:"id"`
	Agent   string `json:"agent"`
	Version int    `json:"version"`
}

// InventoryFile is one file read by one parser.
type InventoryFile struct {
	Host       string `json:"host"`
	BundleID   string `json:"bundle_id"`
	SourceFile string `json:"source_file"`
	Agent      string `json:"agent"`
	Parser     string `json:"parser"`
	// Records counts the distinct positions (line, rowid, array index)
	// that gave a row, a skip or a problem.
	Records int `json:"records"`
	// Rows counts the rows the parser emitted, before the correlation pass.
	Rows int `json:"rows"`
	// RowsHidden counts those the turn-type filters left out (thinking
	// rows without --include-thinking, --hide, --turn-type), Hidden the
	// same per turn type, RowsKept the rest (Rows - RowsHidden), which go
	// on to the correlation pass; the three are omitted when no row of the
	// file was hidden.
	RowsHidden int            `json:"rows_hidden,omitempty"`
	RowsKept   int            `json:"rows_kept,omitempty"`
	Hidden     map[string]int `json:"hidden,omitempty"`
	Skipped    map[string]int `json:"skipped"`
	Problems   int            `json:"problems"`
	Verified   string         `json:"verified"`
	// SHA256 is the file's hash as read (a bundle member's, an extracted
	// file's; "" for a loose file), Member its name in the bundle or the
	// extracted collection ("" for a loose file).
	SHA256 string `json:"sha256"`
	Member string `json:"member"`
	// ReadFrom is the real path in the extracted collection the file was
	// read at when Member passes a followed link (omitted otherwise).
	ReadFrom string `json:"read_from,omitempty"`
}

// InventorySource is one input.
type InventorySource struct {
	Input         string `json:"input"`
	Kind          string `json:"kind"`
	Host          string `json:"host"`
	BundleID      string `json:"bundle_id"`
	UsersInferred bool   `json:"users_inferred"`
	Verified      string `json:"verified"` // all | partial | none | n/a (loose tree)
	Problems      int    `json:"problems"`
	// SHA256 is a bundle file's hash; Case, Examiner, CollectorVersion
	// and StartedUTC come from its header.
	SHA256           string `json:"sha256"`
	Case             string `json:"case"`
	Examiner         string `json:"examiner"`
	CollectorVersion string `json:"collector_version"`
	StartedUTC       string `json:"started_utc"`
	// EndedUTC and Complete come from the manifest's summary row
	// (Complete "" for a loose tree or a bundle without one); Incomplete
	// says why a collection stopped; ChangedDuringCopy counts the files
	// the collector saw change while it copied them.
	EndedUTC          string `json:"ended_utc"`
	Complete          string `json:"complete"`
	Incomplete        string `json:"incomplete_reason"`
	ChangedDuringCopy int    `json:"changed_during_copy"`
	// CollectorLog summarises the collector's own log in the bundle.
	CollectorLog *LogSummary `json:"collector_log"`
	// Unusable says why nothing was read from this input (inputs.go);
	// absent for an input read.
	Unusable string `json:"unusable,omitempty"`
}

// LogSummary counts the collector log's lines by level and keeps its
// warning and error messages (at most 20, escaped as evidence).
type LogSummary struct {
	Lines    int      `json:"lines"`
	Warnings int      `json:"warnings"`
	Errors   int      `json:"errors"`
	Messages []string `json:"messages"`
}

// summarizeLog reads a collector log (zerolog JSON lines).
func summarizeLog(b []byte) *LogSummary {
	if len(b) == 0 {
		return nil
	}
	ls := &LogSummary{Messages: []string{}}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ls.Lines++
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil {
			continue
		}
		lvl, _ := m["level"].(string)
		msg, _ := m["message"].(string)
		switch lvl {
		case "warn":
			ls.Warnings++
		case "error", "fatal":
			ls.Errors++
		default:
			continue
		}
		if len(ls.Messages) < 20 {
			if p, ok := m["path"].(string); ok {
				msg += " (" + p + ")"
			}
			ls.Messages = append(ls.Messages, lvl+": "+msg)
		}
	}
	return ls
}

// InventoryAgent is one host × agent.
type InventoryAgent struct {
	Host          string         `json:"host"`
	Agent         string         `json:"agent"`
	CatalogStatus string         `json:"catalog_status"`
	ParseStatus   string         `json:"parse_status"` // parsed | detected-not-parsed | collected-only
	Users         []string       `json:"users"`
	Files         int            `json:"files"`
	Bytes         int64          `json:"bytes"`
	FilesParsed   int            `json:"files_parsed"`
	Statuses      map[string]int `json:"statuses"`
	Sessions      int            `json:"sessions"`
	Events        int            `json:"events"`
	Problems      int            `json:"problems"`
	SyncedSess    int            `json:"synced_sessions"`
	// RecoveredSess counts sessions whose rows came only (or partly) from
	// secondary sources; UndatedDropped the undated rows --since/--until
	// left out.
	RecoveredSess  int `json:"recovered_sessions"`
	PartialSess    int `json:"partially_recovered_sessions"`
	UndatedDropped int `json:"undated_dropped"`
	// Presence is the agent's on this host (detect.go's presence);
	// UserPresence the same per user ("present, nothing kept": only the
	// agent's folders exist).
	Presence     string            `json:"presence"`
	UserPresence map[string]string `json:"user_presence"`
	// NoRows says, for a parsed agent with no row written, why: the files
	// read that gave none, its problems, and the agent whose rows hold its
	// transcripts (catalog RowsUnder). Empty when it has rows.
	NoRows       string `json:"no_rows,omitempty"`
	users        map[string]bool
	userStatuses map[string]map[string]int
	userFiles    map[string]int
	parsedFiles  map[string]bool
}

func newInventory() *Inventory { return &Inventory{agents: map[string]*InventoryAgent{}} }

func (inv *Inventory) agent(host, name string) *InventoryAgent {
	k := host + "\x00" + name
	a := inv.agents[k]
	if a == nil {
		st := ""
		if ca, ok := catalog.Lookup(name); ok {
			st = string(ca.Status)
		}
		a = &InventoryAgent{Host: host, Agent: name, CatalogStatus: st, Users: []string{}, Statuses: map[string]int{}, users: map[string]bool{}, parsedFiles: map[string]bool{},
			UserPresence: map[string]string{}, userStatuses: map[string]map[string]int{}, userFiles: map[string]int{}}
		inv.agents[k] = a
	}
	return a
}

// checkNames fails when a --host, --user or --agent filter names what no
// input holds (a misspelt agent gives zero rows otherwise, with no word).
func (inv *Inventory) checkNames(o *Options) error {
	hosts, users, agents := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range inv.Sources {
		hosts[s.Host] = true
	}
	for _, a := range inv.agents {
		agents[a.Agent] = true
		for u := range a.users {
			users[u] = true
		}
	}
	for _, f := range []struct {
		flag string
		want []string
		have map[string]bool
	}{{"--host", o.Hosts, hosts}, {"--user", o.Users, users}, {"--agent", o.Agents, agents}} {
		var missing []string
		for _, w := range f.want {
			if !f.have[w] {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			continue
		}
		var held []string
		for h := range f.have {
			held = append(held, h)
		}
		sort.Strings(held)
		return &UnknownNameError{Flag: f.flag, Names: missing, Held: held}
	}
	return nil
}

func (inv *Inventory) addSource(s *inputs.Facts) {
	verified := "n/a"
	if s.Kind != KindLoose {
		n, v := s.Files, s.VerifiedFiles
		switch {
		case n == 0 && s.Problems > 0:
			verified = "none" // nothing verifiable came through (a cut bundle)
		case n == 0:
			verified = "all"
		case v == n:
			verified = "all"
		case v == 0:
			verified = "none"
		default:
			verified = "partial"
		}
	}
	src := InventorySource{Input: s.Input, Kind: s.Kind, Host: s.Host, BundleID: s.BundleID, UsersInferred: s.Inferred, Verified: verified, Problems: s.Problems, SHA256: s.SHA256}
	if h := s.Header; h != nil {
		src.Case, src.Examiner, src.CollectorVersion, src.StartedUTC = h.Host.Case, h.Host.Examiner, h.CollectorVersion, h.StartedUTC
	}
	if sm := s.Summary; sm != nil {
		src.EndedUTC, src.Complete, src.Incomplete = sm.EndedUTC, strconv.FormatBool(sm.Complete), sm.Reason
	}
	src.ChangedDuringCopy = s.Changed
	src.CollectorLog = summarizeLog(s.Log)
	inv.Sources = append(inv.Sources, src)
	for _, f := range s.Seen {
		if f.Agent == "" {
			continue
		}
		a := inv.agent(s.Host, f.Agent)
		a.Statuses[f.Status]++
		us := a.userStatuses[f.User]
		if us == nil {
			us = map[string]int{}
			a.userStatuses[f.User] = us
		}
		us[f.Status]++
		if f.Status == bundle.StatusCollected {
			a.Files++
			a.Bytes += f.Size
			a.userFiles[f.User]++
		}
		if f.User != "" && !a.users[f.User] {
			a.users[f.User] = true
			a.Users = append(a.Users, f.User)
		}
	}
}

func (inv *Inventory) addParsed(s *inputs.Facts, f *inputs.File, p parser.Parser, r parse.Result) {
	a := inv.agent(s.Host, f.Agent)
	if !a.parsedFiles[f.Path] {
		a.parsedFiles[f.Path] = true
		a.FilesParsed++
	}
	a.Events += r.Rows
	v := "false"
	switch {
	case s.Kind == KindLoose:
		v = ""
	case f.Verified():
		v = "true"
	}
	inv.Files = append(inv.Files, InventoryFile{Host: s.Host, BundleID: s.BundleID, SourceFile: f.Path, Agent: f.Agent, Parser: p.ID(),
		Records: r.Records, Rows: r.Rows, Skipped: r.Skipped, Problems: r.Problems, Verified: v, SHA256: f.SHA256(), Member: f.Member(), ReadFrom: f.ReadFrom()})
}

func (inv *Inventory) finish(sessions []timeline.Session, parsedAgents map[string]bool, events map[string]int) {
	for _, s := range sessions {
		a := inv.agent(s.Host, s.Agent)
		a.Sessions++
		if s.Synced == "yes" || s.Synced == "partial" {
			a.SyncedSess++
		}
		switch s.Recovered {
		case "yes":
			a.RecoveredSess++
		case "partial":
			a.PartialSess++
		}
	}
	for _, a := range inv.agents {
		// Events counts rows written (after filters and deduplication).
		a.Events = events[a.Host+"\x00"+a.Agent]
		switch {
		case parsedAgents[a.Agent]:
			a.ParseStatus = "parsed"
		case a.CatalogStatus == string(catalog.StatusCollected):
			a.ParseStatus = "collected-only"
		default:
			a.ParseStatus = "detected-not-parsed"
		}
		sort.Strings(a.Users)
		a.NoRows = noRows(a)
		a.Presence = presence(a.Statuses, a.Files)
		for u, st := range a.userStatuses {
			a.UserPresence[u] = presence(st, a.userFiles[u])
		}
		inv.Agents = append(inv.Agents, *a)
	}
	sort.Slice(inv.Agents, func(i, j int) bool {
		if inv.Agents[i].Host != inv.Agents[j].Host {
			return inv.Agents[i].Host < inv.Agents[j].Host
		}
		return inv.Agents[i].Agent < inv.Agents[j].Agent
	})
	sort.Slice(inv.Sources, func(i, j int) bool { return inv.Sources[i].Input < inv.Sources[j].Input })
	sort.Slice(inv.Files, func(i, j int) bool {
		a, b := &inv.Files[i], &inv.Files[j]
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		if a.BundleID != b.BundleID {
			return a.BundleID < b.BundleID
		}
		if a.SourceFile != b.SourceFile {
			return a.SourceFile < b.SourceFile
		}
		return a.Parser < b.Parser
	})
	if inv.Files == nil {
		inv.Files = []InventoryFile{}
	}
}

func writeOutputs(c *collected, opts *Options, formats []string, sum *Summary) error {
	agg, events, err := writeTimeline(c, opts, formats, sum)
	if err != nil {
		return err
	}
	if slices.Contains(formats, FormatBodyfile) {
		p := filepath.Join(opts.OutDir, BodyfileName)
		if err := outputs.WriteBodyfile(p, c.bodyEntries); err != nil {
			return err
		}
		sum.Files = append(sum.Files, p)
	}
	n := c.corr.Counts()
	sum.RepeatedByID, sum.SecondaryPaired, sum.DuplicateIDs = n.RepeatedByID, n.SecondaryPaired, n.DuplicateIDs
	sum.Duplicates = sum.RepeatedByID + sum.RepeatedNoID
	c.corr.DecideSessions(agg)
	c.problems = append(c.problems, c.corr.TakeProblems()...)
	c.undatedProblems(sum)
	c.hiddenCounts(sum)
	c.attributeInputs()
	sessions := agg.Sessions()
	if filtered(opts) {
		sessions = withRows(sessions)
	}
	if err := writeSessions(opts.OutDir, sessions, sum); err != nil {
		return err
	}
	if err := writeInventory(c, opts, sessions, events, sum); err != nil {
		return err
	}
	return writeProblems(c, opts.OutDir, sum)
}

// writeTimeline is the output pass: the rows in timeline order, less the
// repeats the correlate stage finds and the rows --match leaves out,
// through the session aggregator to every row format. It returns the
// aggregator and the rows written per host and agent.
func writeTimeline(c *collected, opts *Options, formats []string, sum *Summary) (*timeline.Aggregator, map[string]int, error) {
	cases := map[string]string{}
	for _, s := range c.inv.Sources {
		if s.BundleID != "" {
			cases[s.BundleID] = s.Case
		}
	}
	pw, names, err := outputs.OpenTimeline(opts.OutDir, formats, opts.PartitionByHost, func(id string) string { return cases[id] }, opts.Rows)
	if err != nil {
		return nil, nil, err
	}
	agg := c.corr.NewAggregator()
	events := map[string]int{}
	evHost, evAgent, evKey := "", "", "\x00"
	dd := &correlate.DupWindow{}
	// The merge and the correlation run here; encoding and writing the
	// rows run beside them (outputs.Timeline), so the tail uses two cores.
	err = c.primary.Each(func(e *timeline.Event) error {
		// A row parsed from a bundle's stream carries a token for verified
		// until here (inputs.Verdicts).
		e.Verified = c.verdicts.Resolve(e.Verified)
		if c.corr.Repeated(e.Ord) {
			return nil // repeated by record id: counted in resolveIdentities
		}
		if opts.Match != nil && !c.matches(e) && !(e.ToolUseID != "" && c.matchIDs[matchKey(e)]) {
			return nil
		}
		if e.RecordID == "" && dd.Duplicate(e) {
			sum.RepeatedNoID++
			return nil
		}
		agg.Add(e)
		if e.Host != evHost || e.Agent != evAgent { // rows come in runs of one host and agent
			evHost, evAgent, evKey = e.Host, e.Agent, e.Host+"\x00"+e.Agent
		}
		events[evKey]++
		sum.Events++
		if e.Time.IsZero() {
			sum.Undated++
		}
		return pw.Write(e)
	})
	if cerr := pw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, nil, err
	}
	if d, ok := opts.Rows.(outputs.RowsDone); ok {
		if err := d.RowsDone(); err != nil {
			return nil, nil, err
		}
	}
	sum.Files = append(sum.Files, names...)
	return agg, events, nil
}

// undatedProblems reports, per file, the undated rows --since or --until
// left out.
func (c *collected) undatedProblems(sum *Summary) {
	for k, n := range c.undatedDropped {
		sum.UndatedDropped += n
		c.problems = append(c.problems, Problem{Host: k.host, BundleID: k.bundleID, Input: k.input, SourceFile: k.file, Agent: k.agent, Kind: "undated_dropped",
			Message: fmt.Sprintf("%d undated row(s) left out by --since/--until (the agent recorded no time for them; --keep-undated keeps them)", n)})
		c.inv.agent(k.host, k.agent).UndatedDropped += n
	}
}

// hiddenCounts adds up the rows the turn-type filters left out (thinking
// rows without --include-thinking, --hide, --turn-type): per turn type for
// the summary line and run.json, per file for the inventory.
func (c *collected) hiddenCounts(sum *Summary) {
	if sum.Hidden == nil {
		sum.Hidden = map[string]int{}
	}
	type fk struct{ host, bundleID, file, agent string }
	perFile := map[fk]map[string]int{}
	for k, n := range c.hidden {
		sum.Hidden[k.turnType] += n
		f := fk{k.host, k.bundleID, k.file, k.agent}
		if perFile[f] == nil {
			perFile[f] = map[string]int{}
		}
		perFile[f][k.turnType] += n
	}
	for i := range c.inv.Files {
		f := &c.inv.Files[i]
		if h := perFile[fk{f.Host, f.BundleID, f.SourceFile, f.Agent}]; h != nil {
			f.Hidden = h
			for _, n := range h {
				f.RowsHidden += n
			}
			f.RowsKept = f.Rows - f.RowsHidden
		}
	}
}

// withRows keeps the sessions with rows in the (filtered) timeline.
func withRows(sessions []timeline.Session) []timeline.Session {
	kept := sessions[:0]
	for _, s := range sessions {
		if s.Events > 0 {
			kept = append(kept, s)
		}
	}
	return kept
}

func writeSessions(dir string, sessions []timeline.Session, sum *Summary) error {
	sum.Sessions = len(sessions)
	if err := outputs.WriteJSONL(filepath.Join(dir, SessionsJSONL), len(sessions), func(i int) any { return sessions[i] }); err != nil {
		return err
	}
	sum.Files = append(sum.Files, filepath.Join(dir, SessionsJSONL))
	return nil
}

// writeInventory completes the inventory (the parsers of the run, the
// sessions and rows per agent, the problems per agent) and writes it.
func writeInventory(c *collected, opts *Options, sessions []timeline.Session, events map[string]int, sum *Summary) error {
	parsed := parser.ParsedAgents(opts.Parsers)
	c.inv.Parsers = []InventoryParser{}
	for _, p := range opts.Parsers {
		c.inv.Parsers = append(c.inv.Parsers, InventoryParser{ID: p.ID(), Agent: p.Agent(), Version: p.Version()})
	}
	// Each agent's count is its rows in problems.jsonl, every stage's,
	// each row once: a parser's own problem (skipped_record, wal_state) was
	// counted twice when the parse results' count and the rows of every
	// kind but parse were added. Set before finish, whose no_rows text
	// names it.
	perAgent := map[[2]string]int{}
	for _, p := range c.problems {
		perAgent[[2]string{p.Host, p.Agent}]++
	}
	for _, a := range c.inv.agents {
		a.Problems = perAgent[[2]string{a.Host, a.Agent}]
	}
	c.inv.finish(sessions, parsed, events)
	// Each input's count is its rows in problems.jsonl, every stage's
	// (opening, parsing, correlating), so run.json's and inventory.json's
	// numbers are the rows an examiner finds.
	perInput := map[string]int{}
	loose := map[string]bool{}
	for _, s := range c.inv.Sources {
		loose[s.Input] = s.Kind == KindLoose
	}
	for _, p := range c.problems {
		perInput[p.Input]++
		sum.NoteProblem(p, loose[p.Input])
	}
	for i := range c.inv.Sources {
		c.inv.Sources[i].Problems = perInput[c.inv.Sources[i].Input]
	}
	sum.Inventory = c.inv
	b, err := json.MarshalIndent(c.inv, "", "  ")
	if err != nil {
		return err
	}
	if err := outputs.WriteFile(filepath.Join(opts.OutDir, InventoryJSON), append(b, '\n')); err != nil {
		return err
	}
	sum.Files = append(sum.Files, filepath.Join(opts.OutDir, InventoryJSON))
	return nil
}

// attributeInputs names the input of a problem the correlate stage
// raised (duplicate_id, state_conflict, ...), which knows the bundle and
// host but not the path the examiner gave: the one input holding that
// bundle id, else the one input of that host. A problem whose rows came
// from two inputs of one host keeps an empty input (it is counted in the
// run's total, under no single input).
func (c *collected) attributeInputs() {
	byBundle, byHost := map[string]string{}, map[string]string{}
	seen := func(m map[string]string, k, in string) {
		if k == "" {
			return
		}
		if old, ok := m[k]; ok && old != in {
			m[k] = "" // two inputs: not one
			return
		}
		m[k] = in
	}
	for _, s := range c.inv.Sources {
		seen(byBundle, s.BundleID, s.Input)
		seen(byHost, s.Host, s.Input)
	}
	for i := range c.problems {
		p := &c.problems[i]
		if p.Input != "" {
			continue
		}
		if in, known := byBundle[p.BundleID]; p.BundleID != "" && known {
			p.Input = in // "" when two inputs hold that bundle
		} else {
			p.Input = byHost[p.Host]
		}
	}
}

// writeProblems writes problems.jsonl in a fixed order.
func writeProblems(c *collected, dir string, sum *Summary) error {
	for i := range c.problems {
		c.problems[i] = c.problems[i].NamedOnce()
	}
	sort.SliceStable(c.problems, func(i, j int) bool { return problemLess(&c.problems[i], &c.problems[j]) })
	sum.Problems = len(c.problems)
	if err := outputs.WriteJSONL(filepath.Join(dir, ProblemsJSONL), len(c.problems), func(i int) any { return c.problems[i] }); err != nil {
		return err
	}
	sum.Files = append(sum.Files, filepath.Join(dir, ProblemsJSONL))
	return nil
}

func problemLess(a, b *Problem) bool {
	if a.Input != b.Input {
		return a.Input < b.Input
	}
	if a.SourceFile != b.SourceFile {
		return a.SourceFile < b.SourceFile
	}
	if a.SourceLine != b.SourceLine {
		return a.SourceLine < b.SourceLine
	}
	if a.Parser != b.Parser {
		return a.Parser < b.Parser
	}
	return a.Message < b.Message
}

// noRows is InventoryAgent.NoRows: why a parsed agent wrote no row.
func noRows(a *InventoryAgent) string {
	if a.ParseStatus != "parsed" || a.Events > 0 {
		return ""
	}
	var why []string
	if a.FilesParsed > 0 {
		why = append(why, fmt.Sprintf("%d file(s) read, no row written", a.FilesParsed))
	}
	if a.Problems > 0 {
		why = append(why, fmt.Sprintf("%d problem(s) in problems.jsonl", a.Problems))
	}
	if ca, ok := catalog.Lookup(a.Agent); ok && ca.RowsUnder != "" {
		why = append(why, "its transcripts are "+ca.RowsUnder+" sessions: their rows are under "+ca.RowsUnder)
	}
	return strings.Join(why, "; ")
}

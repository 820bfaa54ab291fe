package merge

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/findings"
	"github.com/doubleagent/doubleagent/analyzer/rules"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// MergeJSON names the shards a merged folder was made from.
const MergeJSON = "merge.json"

// maxRunJSON bounds a shard's run.json read whole (it lists the shard's
// inputs; a million inputs fit).
const maxRunJSON = 1 << 30

// Options configure Run.
type Options struct {
	Shards []string // output folders of `doubleagent timeline` (or of a merge)
	OutDir string
	// Rules run over the merged rows (the built-in ones when nil); they
	// must be those the shards ran, when the shards ran rules.
	Rules      []rules.Rule
	NoFindings bool
	// FanIn is how many files one merge step reads at once (0: 64, the
	// default; below 2 is 2). With more shards, consecutive groups of
	// FanIn are merged first into intermediate files inside OutDir
	// (removed when done), so memory and open files do not grow with the
	// number of shards.
	FanIn int
	// CommandLine and ToolVersion go into run.json.
	CommandLine []string
	ToolVersion string
}

// Summary is what a merge wrote.
type Summary struct {
	Shards                     int
	Rows, Undated              int
	Sessions, Problems, Inputs int
	// Unusable, CutShort and Unproven are the shards' run.json counts of
	// unusable inputs, bundles read only in part and bundles failing a
	// whole-file check, summed as one run over every input counts them;
	// UnusableInputs names each unusable input with its reason
	// ("INPUT: REASON", in inputs_given order).
	Unusable, CutShort, Unproven int
	UnusableInputs               []string
	Findings                     *findings.Summary // nil with NoFindings
	Files                        []string
	// Run is the merge as one timeline run over every shard's inputs,
	// for analyze.SummaryLines: the same summary lines timeline prints
	// (inputs, agents, rows, repeats, hidden rows, undated rows left out,
	// problems), from the merged outputs and the shards' run.json counts.
	Run *analyze.Summary
}

// ShardInfo is one shard in merge.json.
type ShardInfo struct {
	Dir           string   `json:"dir"`
	RunJSONSHA256 string   `json:"run_json_sha256"`
	ToolVersion   string   `json:"tool_version"`
	CommandLine   []string `json:"command_line"`
	StartedUTC    string   `json:"started_utc"`
	EndedUTC      string   `json:"ended_utc"`
	Rows          int      `json:"rows"`
	Inputs        int      `json:"inputs"`
}

// MergeRecord is merge.json.
type MergeRecord struct {
	Shards []ShardInfo `json:"shards"`
}

// shard is one shard folder as checked.
type shard struct {
	dir     string
	info    ShardInfo
	rec     analyze.RunRecord // Inputs and InputsGiven dropped after the checks
	hasFind bool
}

// outputs are the files a merge writes, in the order written.
var outputs = []string{analyze.TimelineJSONL, analyze.SessionsJSONL, analyze.ProblemsJSONL, analyze.InventoryJSON, analyze.FindingsJSONL, MergeJSON, analyze.RunJSON}

// Run merges the shards into o.OutDir.
func Run(o Options) (*Summary, error) {
	started := time.Now().UTC()
	if len(o.Shards) == 0 {
		return nil, errors.New("no shard folder given")
	}
	if err := refuseRepeats(o.Shards); err != nil {
		return nil, err
	}
	// Each shard is checked as it is loaded, and its lists of inputs and
	// parsers dropped then: what is held per shard is its ShardInfo and
	// run summary, never its run.json.
	shards := make([]*shard, 0, len(o.Shards))
	ck := newChecker()
	for _, d := range o.Shards {
		s, err := loadShard(d, o.OutDir)
		if err != nil {
			return nil, err
		}
		if err := ck.add(s); err != nil {
			return nil, err
		}
		shards = append(shards, s)
	}
	var fr *findings.Runner
	if !o.NoFindings {
		var err error
		if fr, err = findings.New(findings.Options{Dir: o.OutDir, Rules: o.Rules}); err != nil {
			return nil, err
		}
	}
	if err := prepareOut(o.OutDir); err != nil {
		return nil, err
	}
	sum := &Summary{Shards: len(shards), Run: &analyze.Summary{}}
	first := shards[0].rec.Filters
	sum.Run.IncludeThinking = first["include_thinking"] == true
	for _, k := range []string{"agent", "user", "host", "turn_type", "hide", "session", "action", "since", "until", "match"} {
		if _, ok := first[k]; ok {
			sum.Run.Filtered = true
		}
	}
	sp := &spill{parent: o.OutDir, fanIn: o.FanIn}
	if sp.fanIn == 0 {
		sp.fanIn = DefaultFanIn
	}
	sp.fanIn = max(sp.fanIn, 2)
	defer sp.remove()
	paths := func(name string) []string {
		out := make([]string, len(shards))
		for i, s := range shards {
			out[i] = filepath.Join(s.dir, name)
		}
		return out
	}
	out := func(name string) string { return filepath.Join(o.OutDir, name) }

	// timeline.jsonl, with the rules run on each row as it is written.
	err := writeLines(out(analyze.TimelineJSONL), paths(analyze.TimelineJSONL), sp, decodeRow, rowLess, rowBefore, func(r *timeline.Row) error {
		sum.Rows++
		if r.TimestampUTC == "" {
			sum.Undated++
		}
		if fr != nil {
			return fr.Row(int64(sum.Rows), r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sum.Files = append(sum.Files, out(analyze.TimelineJSONL))
	if err := writeLines(out(analyze.SessionsJSONL), paths(analyze.SessionsJSONL), sp, decodeSession, sessionLess, sessionLess, func(sessionKey) error { sum.Sessions++; return nil }); err != nil {
		return nil, err
	}
	sum.Files = append(sum.Files, out(analyze.SessionsJSONL))
	if err := writeLines(out(analyze.ProblemsJSONL), paths(analyze.ProblemsJSONL), sp, decodeProblem, problemLess, problemBefore, func(p analyze.Problem) error {
		sum.Problems++
		sum.Run.NoteProblem(p, true) // kept for loose inputs only, once the sources are read
		return nil
	}); err != nil {
		return nil, err
	}
	sum.Files = append(sum.Files, out(analyze.ProblemsJSONL))
	inv := &analyze.Inventory{}
	if err := writeInventory(out(analyze.InventoryJSON), paths(analyze.InventoryJSON), sp, inv); err != nil {
		return nil, err
	}
	sum.Run.Inventory = inv
	loose := map[string]bool{}
	for _, src := range inv.Sources {
		loose[src.Input] = src.Kind == analyze.KindLoose
	}
	for in := range sum.Run.NotFollowed {
		if !loose[in] {
			delete(sum.Run.NotFollowed, in)
		}
	}
	sum.Files = append(sum.Files, out(analyze.InventoryJSON))
	if fr != nil {
		fs, err := fr.Finish()
		if err != nil {
			return nil, err
		}
		sum.Findings = fs
		sum.Files = append(sum.Files, fs.Path)
	}
	mr := MergeRecord{}
	for _, s := range shards {
		mr.Shards = append(mr.Shards, s.info)
	}
	b, err := json.MarshalIndent(mr, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeNew(out(MergeJSON), append(b, '\n')); err != nil {
		return nil, err
	}
	sum.Files = append(sum.Files, out(MergeJSON))
	if err := writeRunJSON(o, shards, sum, started, paths(analyze.RunJSON), sp); err != nil {
		return nil, err
	}
	sum.Files = append(sum.Files, out(analyze.RunJSON))
	return sum, nil
}

// loadShard reads a shard's run.json and checks every file the merge reads
// against the size and SHA-256 it records.
func loadShard(dir, outDir string) (*shard, error) {
	if a, b := filepath.Clean(dir), filepath.Clean(outDir); a == b {
		return nil, fmt.Errorf("%s: the output folder is also a shard", dir)
	}
	if within(outDir, dir) {
		return nil, fmt.Errorf("%s: the output folder %s is inside this shard: a shard's folder is evidence of its run and is never written to; use a folder outside every shard", dir, outDir)
	}
	p := filepath.Join(dir, analyze.RunJSON)
	f, err := bundle.OpenRegular(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no %s: not the output folder of a finished `doubleagent timeline` run", dir, analyze.RunJSON)
		}
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRunJSON+1))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(b) > maxRunJSON {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, maxRunJSON)
	}
	s := &shard{dir: dir}
	if err := json.Unmarshal(b, &s.rec); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if s.rec.Tool != "doubleagent" {
		return nil, fmt.Errorf("%s: tool %q, not doubleagent", p, s.rec.Tool)
	}
	if !slices.Contains(s.rec.Formats, analyze.FormatJSONL) {
		return nil, fmt.Errorf("%s: the run wrote no %s (formats %v): run the shards with --format jsonl (and any others)", dir, analyze.TimelineJSONL, s.rec.Formats)
	}
	h := sha256.Sum256(b)
	s.hasFind = s.rec.Findings != nil
	s.info = ShardInfo{Dir: dir, RunJSONSHA256: hex.EncodeToString(h[:]), ToolVersion: s.rec.ToolVersion, CommandLine: s.rec.CommandLine,
		StartedUTC: s.rec.StartedUTC, EndedUTC: s.rec.EndedUTC, Rows: s.rec.Summary.Rows, Inputs: len(s.rec.Inputs)}
	if s.info.CommandLine == nil {
		s.info.CommandLine = []string{}
	}
	need := []string{analyze.TimelineJSONL, analyze.SessionsJSONL, analyze.ProblemsJSONL, analyze.InventoryJSON}
	if s.hasFind {
		need = append(need, analyze.FindingsJSONL)
	}
	for _, name := range need {
		var want *analyze.RunOutput
		for i := range s.rec.Outputs {
			if s.rec.Outputs[i].File == name {
				want = &s.rec.Outputs[i]
			}
		}
		if want == nil {
			return nil, fmt.Errorf("%s: run.json lists no %s", dir, name)
		}
		size, sum, err := hashFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		if size != want.Size || sum != want.SHA256 {
			return nil, fmt.Errorf("%s: %s is %d bytes with SHA-256 %s, run.json records %d bytes with %s: changed since the run, not merged", dir, name, size, sum, want.Size, want.SHA256)
		}
	}
	return s, nil
}

func hashFile(p string) (int64, string, error) {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", p, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// refuseRepeats refuses a shard folder given twice, by the same path,
// another spelling of it or a link to it: its rows would be written twice
// (checkShards' host check names two different folders only).
func refuseRepeats(dirs []string) error {
	type given struct {
		dir string
		fi  os.FileInfo
	}
	var seen []given
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			continue // loadShard names it
		}
		for _, prev := range seen {
			if os.SameFile(prev.fi, fi) {
				return fmt.Errorf("shard %s is given twice (as %s and %s): each shard is merged once", d, prev.dir, d)
			}
		}
		seen = append(seen, given{d, fi})
	}
	return nil
}

// checker refuses shards that one run would not have made together:
// another schema, tool version, parser set, filters or rules, or a host,
// input or bundle in two shards (whose rows one run correlates together).
type checker struct {
	first              *shard
	hosts, inputs, ids map[string]string
}

func newChecker() *checker {
	return &checker{hosts: map[string]string{}, inputs: map[string]string{}, ids: map[string]string{}}
}

// add checks s against the shards added before it, then drops what
// writeRunJSON reads from the first shard only (and, for every shard, its
// inputs, read again streamed for run.json).
func (c *checker) add(s *shard) error {
	if c.first == nil {
		c.first = s
	}
	first := c.first
	same := func(what string, a, b any) error {
		if !reflect.DeepEqual(a, b) {
			return fmt.Errorf("%s and %s were run with different %s (%v and %v): merge only shards of one case run alike", first.dir, s.dir, what, a, b)
		}
		return nil
	}
	claim := func(m map[string]string, what, k string) error {
		if k == "" {
			return nil
		}
		if d, ok := m[k]; ok && d != s.dir {
			return fmt.Errorf("%s %q is in two shards, %s and %s: one run correlates a host's rows across all its inputs, so analyse all of one host's inputs in one shard", what, k, d, s.dir)
		}
		m[k] = s.dir
		return nil
	}
	r := &s.rec
	for _, k := range []struct {
		what string
		a, b any
	}{{"schema versions", first.rec.SchemaVersion, r.SchemaVersion}, {"tool versions", first.rec.ToolVersion, r.ToolVersion},
		{"parsers", first.rec.Parsers, r.Parsers}, {"filters", first.rec.Filters, r.Filters}} {
		if err := same(k.what, k.a, k.b); err != nil {
			return err
		}
	}
	if s.hasFind != first.hasFind {
		return fmt.Errorf("%s ran the rules and %s did not: run every shard alike", map[bool]string{true: first.dir, false: s.dir}[first.hasFind], map[bool]string{true: s.dir, false: first.dir}[first.hasFind])
	}
	if s.hasFind {
		if err := same("rules", first.rec.Findings.Rules, r.Findings.Rules); err != nil {
			return err
		}
	}
	for _, in := range r.Inputs {
		if err := claim(c.hosts, "host", in.Host); err != nil {
			return err
		}
		if err := claim(c.inputs, "input", in.Input); err != nil {
			return err
		}
		if err := claim(c.ids, "bundle id", in.BundleID); err != nil {
			return err
		}
	}
	r.Inputs, r.InputsGiven, r.Outputs = nil, nil, nil
	if s != first {
		r.Parsers, r.Filters, r.Findings, r.Formats = nil, nil, nil, nil
	}
	return nil
}

// prepareOut creates the output folder and refuses one holding a file of
// a run or a merge (nothing is ever overwritten).
// within reports whether path is dir or inside it, links in the part of
// either that exists resolved.
func within(path, dir string) bool {
	p, d := realAbs(path), realAbs(dir)
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realAbs is p made absolute with the links of its longest existing
// prefix resolved (the rest, not yet created, appended as given).
func realAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for cur := a; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return a
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func prepareOut(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := append([]string{analyze.TimelineCSV, analyze.TimelineTimesketch, analyze.TimelineECS, analyze.TimelineParquet}, outputs...)
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return fmt.Errorf("%s: %s exists: the folder already holds a run; use a fresh folder", dir, n)
		}
	}
	return nil
}

func writeNew(p string, b []byte) error {
	f, err := bundle.CreateNew(p, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeLines writes the k-way merge of the shards' JSON Lines files in
// into p; each sees every item's key in the order written. With more
// files than maxFanIn, groups are merged first into intermediate files
// under sp (removed before it returns).
func writeLines[K any](p string, in []string, sp *spill, decode func([]byte) (K, error), less, before func(a, b K) bool, each func(K) error) (err error) {
	defer func() {
		if rerr := sp.remove(); err == nil {
			err = rerr
		}
	}()
	opens := make([]opener, len(in))
	for i, q := range in {
		opens[i] = func() (source, error) {
			s, err := openLines(q)
			if err != nil {
				return nil, err
			}
			return s, nil
		}
	}
	opens, err = reduce(opens, sp, decode, less, before)
	if err != nil {
		return err
	}
	srcs, err := openAll(opens)
	if err != nil {
		return err
	}
	f, err := bundle.CreateNew(p, 0o644)
	if err != nil {
		for _, o := range srcs {
			o.close()
		}
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	err = mergeSources(srcs, decode, less, before, func(line []byte, k K) error {
		if err := each(k); err != nil {
			return err
		}
		_, err := w.Write(line)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// The keys each file is sorted by in one run (analyzer/analyze output.go).

// decodeRow reads a row whole: the rules see it.
func decodeRow(b []byte) (*timeline.Row, error) {
	r := new(timeline.Row)
	return r, json.Unmarshal(b, r)
}

// timeLess orders timestamp_utc strings (fixed width), undated last.
func timeLess(a, b string) bool {
	if (a == "") != (b == "") {
		return b == ""
	}
	return a < b
}

// rowLess is timeline.Less as far as the row shows it: time to the
// millisecond, then host (shards hold disjoint hosts, so the host decides
// between shards; one shard's rows keep their order).
func rowLess(a, b *timeline.Row) bool {
	if a.TimestampUTC != b.TimestampUTC {
		return timeLess(a.TimestampUTC, b.TimestampUTC)
	}
	return a.Host < b.Host
}

// rowBefore: within one shard only the time is monotonic to the
// millisecond (rows of two hosts in one millisecond follow their times to
// the nanosecond, which the row does not show).
func rowBefore(a, b *timeline.Row) bool {
	return a.TimestampUTC != b.TimestampUTC && timeLess(a.TimestampUTC, b.TimestampUTC)
}

type sessionKey struct{ first, host, user, agent, id string }

func decodeSession(b []byte) (sessionKey, error) {
	var s struct {
		Host      string `json:"host"`
		User      string `json:"user"`
		Agent     string `json:"agent"`
		SessionID string `json:"session_id"`
		FirstUTC  string `json:"first_utc"`
	}
	err := json.Unmarshal(b, &s)
	return sessionKey{s.FirstUTC, s.Host, s.User, s.Agent, s.SessionID}, err
}

func sessionLess(a, b sessionKey) bool {
	if a.first != b.first {
		return timeLess(a.first, b.first)
	}
	if a.host != b.host {
		return a.host < b.host
	}
	if a.user != b.user {
		return a.user < b.user
	}
	if a.agent != b.agent {
		return a.agent < b.agent
	}
	return a.id < b.id
}

func decodeProblem(b []byte) (analyze.Problem, error) {
	var p analyze.Problem
	err := json.Unmarshal(b, &p)
	return p, err
}

// problemBefore is the order of problems.jsonl (a stable sort).
func problemBefore(a, b analyze.Problem) bool {
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

// problemLess breaks problemBefore's ties between shards by host: the
// correlation pass of one run reports them host by host.
func problemLess(a, b analyze.Problem) bool {
	if problemBefore(a, b) {
		return true
	}
	if problemBefore(b, a) {
		return false
	}
	return a.Host < b.Host
}

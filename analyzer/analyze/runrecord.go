package analyze

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// RunJSON is the record of a run every output folder holds.
const RunJSON = "run.json"

// ErrOutputInUse is returned when the output folder already holds a run
// and Force is not set.
var ErrOutputInUse = errors.New("output folder already holds a run")

// RunRecord is run.json: how the output folder was made. It is the one
// output file that records the wall clock (when the run started and
// ended) and the command line; the others are byte-identical for the same
// input.
type RunRecord struct {
	Tool          string            `json:"tool"`
	ToolVersion   string            `json:"tool_version"`
	SchemaVersion string            `json:"schema_version"`
	CommandLine   []string          `json:"command_line"`
	StartedUTC    string            `json:"started_utc"`
	EndedUTC      string            `json:"ended_utc"`
	Filters       map[string]any    `json:"filters"`
	Formats       []string          `json:"formats"`
	Parsers       []RunParser       `json:"parsers"`
	Inputs        []InventorySource `json:"inputs"`
	// InputsGiven lists every input given and every entry of a folder
	// given that is named or shaped like evidence, with what became of
	// it: read, unusable (with the reason), duplicate, sidecar.
	InputsGiven []InputStatus `json:"inputs_given"`
	Outputs     []RunOutput   `json:"outputs"`
	Summary     RunSummary    `json:"summary"`
	// Findings summarises findings.jsonl when the run computed findings.
	Findings *RunFindings `json:"findings,omitempty"`
}

// RunFindings is what the findings pass found (analyzer/findings).
type RunFindings struct {
	Rules    []string       `json:"rules"` // every rule run: "<id> <source>"
	Findings int            `json:"findings"`
	ByLevel  map[string]int `json:"by_level"`
	ByClass  map[string]int `json:"by_class"`
}

// RunParser is one registered parser and its version.
type RunParser struct {
	ID      string `json:"id"`
	Agent   string `json:"agent"`
	Version int    `json:"version"`
}

// RunOutput is one file written, with its size and hash.
type RunOutput struct {
	File   string `json:"file"` // relative to the output folder, '/' separated
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// RunSummary repeats the summary line's counts.
type RunSummary struct {
	Rows       int `json:"rows"`
	Undated    int `json:"undated_rows"`
	Sessions   int `json:"sessions"`
	Problems   int `json:"problems"`
	Inputs     int `json:"inputs"`
	InputsRead int `json:"inputs_read"`
	Unusable   int `json:"unusable_inputs"`
	// CutShort counts the bundles read only in part (cut short or
	// corrupt: a truncated problem names where each stops).
	CutShort int `json:"cut_short_inputs"`
	// Unproven counts the bundles failing a whole-file check: a .sha256
	// sidecar naming another hash or unreadable (their rows verified:
	// false), data after the archive's end not read.
	Unproven        int `json:"unproven_inputs"`
	DuplicateInputs int `json:"duplicate_inputs"`
	RepeatsMerged   int `json:"repeats_merged"`
	RepeatedByID    int `json:"repeated_by_record_id"`
	RepeatedNoID    int `json:"repeated_without_id"`
	SecondaryPaired int `json:"secondary_paired"`
	DuplicateIDs    int `json:"duplicate_ids"`
	UndatedDropped  int `json:"undated_dropped"`
	// RowsHidden counts the rows the turn-type filters left out (thinking
	// rows without --include-thinking, --hide, --turn-type), as parsed,
	// before repeats are merged; RowsHiddenByType the same per turn type.
	RowsHidden       int            `json:"rows_hidden"`
	RowsHiddenByType map[string]int `json:"rows_hidden_by_turn_type"`
}

// Files written beside the timeline by the passes that read it after the
// engine (analyzer/findings, analyzer/surface); they are recorded in
// run.json with AppendRunOutputs.
const (
	FindingsJSONL = "findings.jsonl"
	SurfaceJSONL  = "surface.jsonl"
	SurfaceMD     = "surface.md"
	ReportHTML    = "report.html" // analyzer/report
	ReportMD      = "report.md"
)

// knownOutputs are the names a run writes into its folder.
var knownOutputs = []string{TimelineJSONL, TimelineCSV, TimelineTimesketch, TimelineECS, ECSTemplateOut, TimesketchDir, TimelineParquet, BodyfileName, SessionsJSONL, InventoryJSON, ProblemsJSONL, FindingsJSONL, SurfaceJSONL, SurfaceMD, ReportHTML, ReportMD, RunJSON}

// prepareOutDir creates the output folder. A folder that already holds a
// run (run.json, or any file a run writes) is refused unless force; with
// force, the files a run writes (those the old run.json lists and the
// known names) are removed first, and nothing else in the folder is.
func prepareOutDir(dir string, force bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output folder: %w", err)
	}
	var present []string
	for _, n := range knownOutputs {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			present = append(present, n)
		}
	}
	if len(present) == 0 {
		return nil
	}
	if !force {
		return fmt.Errorf("%w: %s holds %s (use another folder, or --force to replace that run's files)", ErrOutputInUse, dir, strings.Join(present, ", "))
	}
	names := append([]string(nil), knownOutputs...)
	if b, err := os.ReadFile(filepath.Join(dir, RunJSON)); err == nil {
		var old RunRecord
		if json.Unmarshal(b, &old) == nil {
			for _, o := range old.Outputs {
				names = append(names, o.File)
			}
		}
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, n := range names {
		p := filepath.Join(root, filepath.FromSlash(n))
		if rel, err := filepath.Rel(root, p); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue // a run.json naming a file outside the folder is ignored
		}
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("--force: remove %s: %w", p, err)
		}
	}
	return nil
}

// writeRunRecord writes run.json last, hashing every output file.
func writeRunRecord(opts *Options, formats []string, sum *Summary, started time.Time) error {
	read, _, dup, _ := sum.InputCounts()
	if sum.Inputs == nil {
		sum.Inputs = []InputStatus{}
	}
	rec := RunRecord{Tool: "doubleagent", ToolVersion: opts.ToolVersion, SchemaVersion: timeline.SchemaVersion,
		CommandLine: opts.CommandLine, StartedUTC: timeline.FormatTime(started), EndedUTC: timeline.FormatTime(time.Now().UTC()),
		Filters: filters(opts), Inputs: sum.Inventory.Sources, InputsGiven: sum.Inputs,
		Summary: RunSummary{Rows: sum.Events, Undated: sum.Undated, Sessions: sum.Sessions, Problems: sum.Problems, Inputs: sum.Sources,
			InputsRead: read, Unusable: sum.Failed, CutShort: len(sum.CutShort), Unproven: sum.UnprovenInputs, DuplicateInputs: dup, RepeatsMerged: sum.RepeatsMerged(), RepeatedByID: sum.RepeatedByID, RepeatedNoID: sum.RepeatedNoID, SecondaryPaired: sum.SecondaryPaired,
			DuplicateIDs: sum.DuplicateIDs, UndatedDropped: sum.UndatedDropped, RowsHidden: sum.HiddenTotal(), RowsHiddenByType: sum.Hidden}}
	if rec.Summary.RowsHiddenByType == nil {
		rec.Summary.RowsHiddenByType = map[string]int{}
	}
	if rec.CommandLine == nil {
		rec.CommandLine = []string{}
	}
	rec.Formats = formats
	for _, p := range opts.Parsers {
		rec.Parsers = append(rec.Parsers, RunParser{ID: p.ID(), Agent: p.Agent(), Version: p.Version()})
	}
	sort.Slice(rec.Parsers, func(i, j int) bool { return rec.Parsers[i].ID < rec.Parsers[j].ID })
	for _, f := range sum.Files {
		err := filepath.WalkDir(f, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			o, err := hashOutput(opts.OutDir, p)
			if err != nil {
				return err
			}
			rec.Outputs = append(rec.Outputs, o)
			return nil
		})
		if err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(opts.OutDir, RunJSON)
	f, err := createOutput(p)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	sum.Files = append(sum.Files, p)
	return f.Close()
}

func hashOutput(dir, p string) (RunOutput, error) {
	f, err := os.Open(p)
	if err != nil {
		return RunOutput{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return RunOutput{}, err
	}
	rel, _ := filepath.Rel(dir, p)
	return RunOutput{File: filepath.ToSlash(rel), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// filters lists the options that shaped the rows, for run.json.
func filters(o *Options) map[string]any {
	m := map[string]any{}
	add := func(k string, v []string) {
		if len(v) > 0 {
			m[k] = v
		}
	}
	add("agent", o.Agents)
	add("user", o.Users)
	add("host", o.Hosts)
	add("turn_type", o.TurnTypes)
	add("hide", o.Hide)
	add("session", o.Sessions)
	add("action", o.Actions)
	if !o.Since.IsZero() {
		m["since"] = timeline.FormatTime(o.Since)
	}
	if !o.Until.IsZero() {
		m["until"] = timeline.FormatTime(o.Until)
	}
	if o.Match != nil {
		m["match"] = o.Match.String()
	}
	if o.IncludeThinking {
		m["include_thinking"] = true
	}
	if o.KeepUndated {
		m["keep_undated"] = true
	}
	if parser.MaxLineBytes != 64<<20 {
		m["max_line"] = parser.MaxLineBytes
	}
	return m
}

// AppendRunOutputs records files a later pass wrote into an output folder
// (findings.jsonl, surface.jsonl): each is hashed and listed in run.json's
// outputs (replacing an entry of the same name), and findings, when
// given, is recorded. The folder must hold the engine's run.json.
func AppendRunOutputs(dir string, files []string, findings *RunFindings) error {
	p := filepath.Join(dir, RunJSON)
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	var rec RunRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return fmt.Errorf("%s: %w", RunJSON, err)
	}
	for _, f := range files {
		o, err := hashOutput(dir, f)
		if err != nil {
			return err
		}
		kept := rec.Outputs[:0]
		for _, x := range rec.Outputs {
			if x.File != o.File {
				kept = append(kept, x)
			}
		}
		rec.Outputs = append(kept, o)
	}
	if findings != nil {
		rec.Findings = findings
	}
	out, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, append(out, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/findings"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/analyzer/rules"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/rs/zerolog"
)

// TimelineCmd is `doubleagent timeline`.
type TimelineCmd struct {
	Inputs          []string      `arg:"" name:"INPUT" help:"Bundles, folders of bundles, extracted collections, or loose trees (a copied home, a mounted image, a lone .claude folder), or a single file read with --agent as that agent's file." type:"path"`
	Output          string        `short:"o" required:"" help:"Output folder (created if missing)." type:"path" placeholder:"DIR"`
	Since           string        `help:"Keep rows at or after this time: RFC 3339 with a zone, or UTC without one (2026-11-29T18:20:00, or YYYY-MM-DD)."`
	Until           string        `help:"Keep rows at or before this time: RFC 3339 with a zone, or UTC without one (2026-11-29T18:20:00, or YYYY-MM-DD meaning the end of that day)."`
	Agent           []string      `help:"Keep only this agent (catalog name; repeatable). Given once, a single file INPUT is read as this agent's file."`
	User            []string      `help:"Keep only this user (repeatable). Given once, it also names the user of a loose input whose one home was named after its folder (a copied home, a lone agent folder, a single file)."`
	Host            []string      `help:"Keep only this host (repeatable). Given once, it also names every loose input without an etc/hostname of its own."`
	Match           string        `help:"Keep rows whose text, tool input or tool name matches this regular expression, plus the call or result paired with each." placeholder:"REGEX"`
	TurnType        []string      `help:"Keep only this turn type (repeatable): ${enum}." enum:"user,assistant,tool_use,tool_result,thinking,system" placeholder:"TYPE"`
	Hide            []string      `help:"Leave out this turn type (repeatable), e.g. --hide system: ${enum}." enum:"user,assistant,tool_use,tool_result,thinking,system" placeholder:"TYPE"`
	Session         []string      `help:"Keep only this session (repeatable): its id, or an unambiguous start of it as git takes a commit's (an ambiguous one fails naming the candidates)." placeholder:"ID"`
	Action          []string      `help:"Keep only tool rows with this action (repeatable): ${enum}." enum:"execute,file_read,file_write,file_edit,file_delete,search,web_fetch,mcp,subagent,ask_user,todo,other" placeholder:"ACTION"`
	IncludeThinking bool          `help:"Include thinking rows."`
	KeepUndated     bool          `help:"With --since/--until, still keep rows whose time the agent did not record (without those filters they are always kept; they sort last)."`
	Format          string        `help:"Output formats, comma-separated: jsonl, csv, timesketch, ecs (Elastic Common Schema NDJSON and its index template), parquet, bodyfile (the mactime bodyfile of every collected file)." default:"jsonl" placeholder:"LIST"`
	PartitionByHost bool          `help:"Lay the timeline out for a data lake: Parquet Hive-partitioned as timeline.parquet/case=C/host=H/day=YYYY-MM-DD/part-0.parquet, Timesketch as one file per host (timeline.timesketch/H.jsonl)."`
	Jobs            int           `help:"Inputs processed in parallel (default: number of CPUs)." default:"0"`
	Force           bool          `help:"Replace the files of an earlier run in the output folder (only those a run writes)."`
	NoCarve         bool          `help:"Skip the SQLite carver: no rows recovered from the freed space and stale WAL frames of agents' SQLite stores (a quicker run)."`
	StoreRows       int64         `help:"Most records read from one SQLite store; the rest is reported as store_budget." default:"50000000"`
	StoreTime       time.Duration `help:"Longest time one SQLite store is parsed; the rest is reported as store_budget." default:"30m"`
	MaxLine         string        `help:"Longest line of a transcript read, default 64MiB (bytes; K, M, G suffixes are binary): a longer line is not held, and is reported as line_too_long." default:"64MiB" placeholder:"SIZE"`
	Rules           []string      `help:"Also run these Sigma rules (a .yml file or a folder of them; repeatable) with the built-in ones (analyzer/docs/rules.md)." type:"path" placeholder:"PATH"`
	NoFindings      bool          `help:"Do not run the rules (no findings.jsonl)."`
	Identity        []string      `help:"${identity_help}" type:"path" placeholder:"FILE" sep:"none"`
}

// loadRules returns the built-in rules and the examiner's.
func (c *TimelineCmd) loadRules() ([]rules.Rule, error) {
	rs, err := rules.Builtin()
	if err != nil {
		return nil, err
	}
	extra, loaded, err := rules.Load(c.Rules)
	if err != nil {
		return nil, err
	}
	for _, l := range loaded {
		fmt.Fprintf(os.Stderr, "rules: %d loaded from %s\n", l.Rules, clean(l.Path))
	}
	seen := map[string]string{}
	for _, r := range rs {
		seen[r.ID] = r.Source
	}
	for _, r := range extra {
		if prev, dup := seen[r.ID]; dup {
			return nil, fmt.Errorf("%s: rule id %s is also %s", r.Source, r.ID, prev)
		}
		seen[r.ID] = r.Source
	}
	return append(rs, extra...), nil
}

// finishFindings writes findings.jsonl from the rows the output pass
// handed the runner, records it in run.json and returns its summary line.
func finishFindings(dir string, u *findings.Runner) (string, string, error) {
	sum, err := u.Finish()
	if err != nil {
		return "", "", err
	}
	if err := analyze.AppendRunOutputs(dir, sum.Paths, sum.Record()); err != nil {
		return "", "", err
	}
	return sum.Line(), sum.Path, nil
}

// zonelessLayouts are the times without a zone --since and --until take
// as UTC (fractional seconds are accepted after the seconds).
var zonelessLayouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04"}

// parseWhen reads --since or --until: RFC 3339 with a zone (converted to
// UTC), a time without a zone (UTC, as the help says), or a date (its
// start, or with end its last nanosecond, UTC).
func parseWhen(s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	for _, l := range zonelessLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, nil
		}
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.UTC); err == nil {
		if end {
			return t.Add(24*time.Hour - time.Nanosecond), nil
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is neither RFC 3339 (2026-11-29T18:20:00Z), a UTC time without a zone (2026-11-29T18:20:00) nor a date (2026-11-29)", s)
}

// Run runs the command.
func (c *TimelineCmd) Run(g *Globals, log zerolog.Logger) error {
	since, err := parseWhen(c.Since, false)
	if err != nil {
		return &exitError{exitUnusable, "--since: " + err.Error()}
	}
	until, err := parseWhen(c.Until, true)
	if err != nil {
		return &exitError{exitUnusable, "--until: " + err.Error()}
	}
	var re *regexp.Regexp
	if c.Match != "" {
		re, err = regexp.Compile(c.Match)
		if err != nil {
			return &exitError{exitUnusable, "--match: " + err.Error()}
		}
	}
	maxLine, err := bundle.ParseSize(c.MaxLine)
	if err != nil {
		return &exitError{exitUnusable, "--max-line: " + err.Error()}
	}
	if maxLine < 1<<10 {
		return &exitError{exitUnusable, "--max-line: at least 1KiB"}
	}
	parser.MaxLineBytes = maxLine
	var fr *findings.Runner
	if !c.NoFindings {
		rs, err := c.loadRules()
		if err != nil {
			return &exitError{exitUnusable, "--rules: " + plainErr(err)}
		}
		// The rules run on the rows in memory as the output pass writes
		// them, whatever --format says (Options.Rows).
		if fr, err = findings.New(findings.Options{Dir: c.Output, Rules: rs}); err != nil {
			return &exitError{exitUnusable, "findings: " + err.Error()}
		}
	}
	limits, err := bundleLimits(c.Identity)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := analyze.Options{Limits: limits,
		Inputs: c.Inputs, OutDir: c.Output, Format: c.Format, Since: since, Until: until,
		Agents: c.Agent, Users: c.User, Hosts: c.Host, Match: re, IncludeThinking: c.IncludeThinking,
		KeepUndated: c.KeepUndated, Jobs: c.Jobs, Parsers: parsers.All(), Log: log,
		StoreRows: c.StoreRows, StoreTime: c.StoreTime,
		TurnTypes: c.TurnType, Hide: c.Hide, Sessions: c.Session, Actions: c.Action, PartitionByHost: c.PartitionByHost,
		Force: c.Force, NoCarve: c.NoCarve, CommandLine: os.Args, ToolVersion: Version,
	}
	if fr != nil {
		opts.Rows = fr
	}
	if _, err := analyze.ParseFormats(c.Format); err != nil {
		return &exitError{exitUnusable, "--format: " + err.Error()}
	}
	if slices.Contains(c.TurnType, "thinking") {
		opts.IncludeThinking = true
	}
	if isTerminal(os.Stderr) {
		opts.Progress = func(done, total int, input string) {
			fmt.Fprintf(os.Stderr, "\r\x1b[K[%d/%d] %s", done, total, clean(input))
			if done == total {
				fmt.Fprintln(os.Stderr)
			}
		}
	}
	sum, err := analyze.Timeline(ctx, opts)
	var noInput error
	if err != nil {
		if !errors.Is(err, analyze.ErrNoInput) || sum == nil {
			return &exitError{exitUnusable, err.Error()}
		}
		noInput = err // the outputs are written: say what they hold, then fail
	}
	for _, l := range analyze.SummaryLines(sum) {
		fmt.Println(cleanN(l, 16*maxTerminalText)) // paths, reasons and agent names come from the evidence
	}
	if fr != nil {
		line, path, err := finishFindings(c.Output, fr)
		if err != nil {
			return &exitError{exitUnusable, "findings: " + err.Error()}
		}
		fmt.Println(clean(line))
		if path != "" {
			sum.Files = append(sum.Files, path)
		}
	}
	fmt.Printf("written: %s\n", strings.Join(sum.Files, " "))
	if noInput != nil {
		return &writtenError{&exitError{exitUnusable, noInput.Error() + " (the outputs name every input and why: problems.jsonl, run.json)"}}
	}
	if sum.Failed > 0 {
		return &exitError{exitPartial, fmt.Sprintf("%d input(s) unusable (listed above, in problems.jsonl and in run.json): the outputs hold only the others", sum.Failed)}
	}
	if n := len(sum.CutShort); n > 0 {
		return &exitError{exitPartial, fmt.Sprintf("%d bundle(s) read only in part (cut short or corrupt; listed above, in problems.jsonl and run.json's cut_short_inputs): the outputs hold what came before each cut", n)}
	}
	if n := sum.UnprovenInputs; n > 0 {
		return &exitError{exitPartial, fmt.Sprintf("%d bundle(s) failing a whole-file check (a .sha256 sidecar naming another hash, or data after the archive not read; listed above, in problems.jsonl and run.json's unproven_inputs): the outputs hold their rows, marked verified:false where the sidecar does not vouch for them", n)}
	}
	if sum.Events == 0 {
		return &exitError{exitNothing, ""}
	}
	return nil
}

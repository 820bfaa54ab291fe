package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/findings"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/analyzer/rules"
	"github.com/rs/zerolog"
)

// TimelineCmd is `doubleagent timeline`.
type TimelineCmd struct {
	Inputs          []string      `arg:"" name:"INPUT" help:"Bundles, folders of bundles, extracted collections, or loose trees (a copied home, a mounted image, a lone .claude folder), or a single file read with --agent as that agent's file." type:"path"`
	Output          string        `short:"o" required:"" help:"Output folder (created if missing)." type:"path" placeholder:"DIR"`
	Since           string        `help:"Keep rows at or after this UTC time (RFC 3339 or YYYY-MM-DD)."`
	Until           string        `help:"Keep rows at or before this UTC time (RFC 3339, or YYYY-MM-DD meaning the end of that day)."`
	Agent           []string      `help:"Keep only this agent (catalog name; repeatable). Given once, a single file INPUT is read as this agent's file."`
	User            []string      `help:"Keep only this user (repeatable). Given once, it also names the user of a loose input whose one home was named after its folder (a copied home, a lone agent folder, a single file)."`
	Host            []string      `help:"Keep only this host (repeatable). Given once, it also names every loose input without an etc/hostname of its own."`
	Match           string        `help:"Keep rows whose text, tool input or tool name matches this regular expression, plus the call or result paired with each." placeholder:"REGEX"`
	TurnType        []string      `help:"Keep only this turn type (repeatable): ${enum}." enum:"user,assistant,tool_use,tool_result,thinking,system" placeholder:"TYPE"`
	Hide            []string      `help:"Leave out this turn type (repeatable), e.g. --hide system: ${enum}." enum:"user,assistant,tool_use,tool_result,thinking,system" placeholder:"TYPE"`
	Session         []string      `help:"Keep only this session id (repeatable)." placeholder:"ID"`
	Action          []string      `help:"Keep only tool rows with this action (repeatable): ${enum}." enum:"execute,file_read,file_write,file_edit,file_delete,search,web_fetch,mcp,subagent,ask_user,todo,other" placeholder:"ACTION"`
	IncludeThinking bool          `help:"Include thinking rows."`
	KeepUndated     bool          `help:"With --since/--until, still keep rows whose time the agent did not record (without those filters they are always kept; they sort last)."`
	Format          string        `help:"Output formats, comma-separated: jsonl, csv, timesketch, ecs (Elastic Common Schema NDJSON and its index template), parquet, bodyfile (the mactime bodyfile of every collected file)." default:"jsonl" placeholder:"LIST"`
	PartitionByHost bool          `help:"Lay the timeline out for a data lake: Parquet Hive-partitioned as timeline.parquet/case=C/host=H/day=YYYY-MM-DD/part-0.parquet, Timesketch as one file per host (timeline.timesketch/H.jsonl)."`
	Jobs            int           `help:"Inputs processed in parallel (default: number of CPUs)." default:"0"`
	Force           bool          `help:"Replace the files of an earlier run in the output folder (only those a run writes)."`
	StoreRows       int64         `help:"Most records read from one SQLite store; the rest is reported as store_budget." default:"50000000"`
	StoreTime       time.Duration `help:"Longest time one SQLite store is parsed; the rest is reported as store_budget." default:"30m"`
	MaxLine         string        `help:"Longest line of a transcript read, default 64MiB (bytes; K, M, G suffixes are binary): a longer line is not held, and is reported as line_too_long." default:"64MiB" placeholder:"SIZE"`
	Rules           []string      `help:"Also run these Sigma rules (a .yml file or a folder of them; repeatable) with the built-in ones (analyzer/docs/rules.md)." type:"path" placeholder:"PATH"`
	NoFindings      bool          `help:"Do not run the rules (no findings.jsonl)."`
}

// loadRules returns the built-in rules and the examiner's.
func (c *TimelineCmd) loadRules() ([]rules.Rule, error) {
	rs, err := rules.Builtin()
	if err != nil {
		return nil, err
	}
	extra, err := rules.Load(c.Rules)
	if err != nil {
		return nil, err
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

// runFindings runs the rules over the written timeline, records
// findings.jsonl in run.json and returns its summary line.
func runFindings(dir string, rs []rules.Rule) (string, string, error) {
	sum, err := findings.Run(findings.Options{Dir: dir, Rules: rs})
	if err != nil {
		if errors.Is(err, findings.ErrNoTimeline) {
			return "findings: not computed (the rules read timeline.jsonl: add jsonl to --format)", "", nil
		}
		return "", "", err
	}
	if err := analyze.AppendRunOutputs(dir, []string{sum.Path}, sum.Record()); err != nil {
		return "", "", err
	}
	return sum.Line(), sum.Path, nil
}

// parseSize reads a byte count: digits, then optionally K, M or G (binary,
// with or without "iB" or "B").
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "i")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K', 'k':
			mult = 1 << 10
		case 'M', 'm':
			mult = 1 << 20
		case 'G', 'g':
			mult = 1 << 30
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size (such as 65536, 64MiB, 1G)", s)
	}
	return n * mult, nil
}

func parseWhen(s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if end {
			return t.Add(24*time.Hour - time.Nanosecond), nil
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is neither RFC 3339 nor YYYY-MM-DD", s)
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
	maxLine, err := parseSize(c.MaxLine)
	if err != nil {
		return &exitError{exitUnusable, "--max-line: " + err.Error()}
	}
	if maxLine < 1<<10 {
		return &exitError{exitUnusable, "--max-line: at least 1KiB"}
	}
	parser.MaxLineBytes = maxLine
	var rs []rules.Rule
	if !c.NoFindings {
		if rs, err = c.loadRules(); err != nil {
			return &exitError{exitUnusable, "--rules: " + err.Error()}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := analyze.Options{
		Inputs: c.Inputs, OutDir: c.Output, Format: c.Format, Since: since, Until: until,
		Agents: c.Agent, Users: c.User, Hosts: c.Host, Match: re, IncludeThinking: c.IncludeThinking,
		KeepUndated: c.KeepUndated, Jobs: c.Jobs, Parsers: parsers.All(), Log: log,
		StoreRows: c.StoreRows, StoreTime: c.StoreTime,
		TurnTypes: c.TurnType, Hide: c.Hide, Sessions: c.Session, Actions: c.Action, PartitionByHost: c.PartitionByHost,
		Force: c.Force, CommandLine: os.Args, ToolVersion: Version,
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
	if err != nil {
		if errors.Is(err, analyze.ErrNoInput) {
			return &exitError{exitUnusable, err.Error()}
		}
		return &exitError{exitUnusable, err.Error()}
	}
	fmt.Println(cleanN(analyze.AgentsLine(sum.Inventory), 16*maxTerminalText)) // agent names come from manifests
	fmt.Printf("timeline: %d rows (%d undated), %d sessions, %d problems from %d inputs (%d unusable)\n", sum.Events, sum.Undated, sum.Sessions, sum.Problems, sum.Sources, sum.Failed)
	fmt.Println(analyze.DroppedLine(sum))
	if !c.NoFindings {
		line, path, err := runFindings(c.Output, rs)
		if err != nil {
			return &exitError{exitUnusable, "findings: " + err.Error()}
		}
		fmt.Println(clean(line))
		if path != "" {
			sum.Files = append(sum.Files, path)
		}
	}
	fmt.Printf("written: %s\n", strings.Join(sum.Files, " "))
	if sum.Events == 0 {
		return &exitError{exitNothing, ""}
	}
	return nil
}

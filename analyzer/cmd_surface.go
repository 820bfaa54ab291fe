package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/findings"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	ps "github.com/doubleagent/doubleagent/analyzer/parsers/surface"
	"github.com/doubleagent/doubleagent/analyzer/rules"
	"github.com/doubleagent/doubleagent/analyzer/surface"
	"github.com/rs/zerolog"
)

// SurfaceCmd is `doubleagent surface`: the agents' control surface (the
// autoruns of AI agents) of one or more inputs.
type SurfaceCmd struct {
	Inputs   []string `arg:"" name:"INPUT" help:"Bundles, folders of bundles, extracted collections, or loose trees." type:"path"`
	Output   string   `short:"o" required:"" help:"Output folder (created if missing): surface.jsonl, surface.md, the whole timeline (the transcripts say who wrote each entry), findings.jsonl, problems, run.json." type:"path" placeholder:"DIR"`
	Agent    []string `help:"Keep only this agent (catalog name; repeatable)."`
	User     []string `help:"Keep only this user (repeatable)."`
	Host     []string `help:"Keep only this host (repeatable)."`
	Jobs     int      `help:"Inputs processed in parallel (default: number of CPUs)." default:"0"`
	Force    bool     `help:"Replace the files of an earlier run in the output folder (only those a run writes)."`
	Identity []string `help:"${identity_help}" type:"path" placeholder:"FILE" sep:"none"`
}

// listed are the kinds printed on the terminal; the rest (skill files,
// bundled skills) are in surface.md.
func listed(e *surface.Entry) bool {
	return e.Kind != ps.KindSkillFile && e.Scope != "bundled"
}

// Run runs the command.
func (c *SurfaceCmd) Run(g *Globals, log zerolog.Logger) error {
	limits, err := bundleLimits(c.Identity)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := analyze.Timeline(ctx, analyze.Options{Limits: limits,
		Inputs: c.Inputs, OutDir: c.Output, Format: analyze.FormatJSONL, Agents: c.Agent, Users: c.User, Hosts: c.Host,
		Jobs: c.Jobs, Parsers: parsers.All(), Log: log, Force: c.Force, CommandLine: os.Args, ToolVersion: Version,
	})
	if err != nil {
		return &exitError{exitUnusable, err.Error()}
	}
	ls, err := surface.WriteLimits(c.Output, limits)
	if err != nil {
		return &exitError{exitUnusable, "surface: " + err.Error()}
	}
	rs, err := rules.Builtin()
	if err != nil {
		return &exitError{exitUnusable, err.Error()}
	}
	fs, err := findings.Run(findings.Options{Dir: c.Output, Rules: rs})
	if err != nil {
		return &exitError{exitUnusable, "findings: " + err.Error()}
	}
	if err := analyze.AppendRunOutputs(c.Output, append(ls.Paths, fs.Path), fs.Record()); err != nil {
		return &exitError{exitUnusable, err.Error()}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tAGENT\tSCOPE\tUSER@HOST\tNAME\tRUNS OR SAYS\tFILE")
	more := 0
	for i := range ls.Entries {
		e := &ls.Entries[i]
		if !listed(e) {
			more++
			continue
		}
		name := e.Name
		if e.Kind == ps.KindHook {
			name = e.Event
			if e.Matcher != "" {
				name += "[" + e.Matcher + "]"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", strings.ReplaceAll(e.Kind, "_", " "), e.Agent, e.Scope, clean(e.User+"@"+e.Host),
			clean(short(name, 40)), clean(short(ps.Detail(&e.Item), 70)), clean(e.File))
	}
	tw.Flush()
	var kinds []string
	for _, k := range ps.Kinds {
		if n := ls.ByKind[k]; n > 0 {
			kinds = append(kinds, fmt.Sprintf("%s %d", strings.ReplaceAll(k, "_", " "), n))
		}
	}
	fmt.Printf("surface: %d entries from %d files (%s); %d skill files and bundled entries not shown here, see %s\n", len(ls.Entries), ls.Files, strings.Join(kinds, ", "), more, analyze.SurfaceMD)
	fmt.Printf("timeline: %d rows, %d problems from %d inputs (%d unusable)\n", sum.Events, sum.Problems, sum.Sources, sum.Failed)
	fmt.Println(clean(fs.Line()))
	fmt.Printf("written: %s\n", strings.Join(append(append(sum.Files, ls.Paths...), fs.Path), " "))
	if len(ls.Entries) == 0 {
		return &exitError{exitNothing, ""}
	}
	return nil
}

func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

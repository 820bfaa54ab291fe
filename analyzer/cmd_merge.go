package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/merge"
)

// MergeCmd is `doubleagent merge`.
type MergeCmd struct {
	Shards     []string `arg:"" name:"SHARD_OUT" help:"Output folders of doubleagent timeline runs over parts of one case (one bundle each, or a shard of bundles each; a merged folder is one too). Every host's inputs must be in one shard." type:"path"`
	Output     string   `short:"o" required:"" help:"Output folder of the whole case (created if missing; refused if it holds a run)." type:"path" placeholder:"DIR"`
	Rules      []string `help:"The examiner's Sigma rules the shards ran with --rules (a .yml file or a folder; repeatable): the merge runs the rules again over the merged rows." type:"path" placeholder:"PATH"`
	NoFindings bool     `help:"Do not run the rules (no findings.jsonl)."`
}

// Run runs the command.
func (c *MergeCmd) Run() error {
	tc := TimelineCmd{Rules: c.Rules}
	rs, err := tc.loadRules()
	if err != nil {
		return &exitError{exitUnusable, "--rules: " + plainErr(err)}
	}
	sum, err := merge.Run(merge.Options{Shards: c.Shards, OutDir: c.Output, Rules: rs, NoFindings: c.NoFindings, CommandLine: os.Args, ToolVersion: Version})
	if err != nil {
		return &exitError{exitUnusable, clean(err.Error())}
	}
	fmt.Printf("merged: %d shard(s), %d input(s): %d rows (%d undated), %d sessions, %d problems\n", sum.Shards, sum.Inputs, sum.Rows, sum.Undated, sum.Sessions, sum.Problems)
	for _, l := range analyze.SummaryLines(sum.Run) {
		fmt.Println(cleanN(l, 16*maxTerminalText)) // as timeline prints them: paths and reasons come from the evidence
	}
	if sum.Findings != nil {
		fmt.Println(clean(sum.Findings.Line()))
	}
	fmt.Printf("written: %s\n", clean(strings.Join(sum.Files, " ")))
	if n := sum.Unusable + sum.CutShort + sum.Unproven; n > 0 {
		return &exitError{exitPartial, fmt.Sprintf("the shards hold %d unusable input(s), %d bundle(s) read only in part and %d failing a whole-file check (listed above, in problems.jsonl and run.json): the merged outputs hold only what was read of them, as one run over every input would", sum.Unusable, sum.CutShort, sum.Unproven)}
	}
	if sum.Rows == 0 {
		return &exitError{exitNothing, ""}
	}
	return nil
}

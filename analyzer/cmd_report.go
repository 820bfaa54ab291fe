package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/report"
	"github.com/doubleagent/doubleagent/analyzer/surface"
	"github.com/rs/zerolog"
)

// ReportCmd is `doubleagent report`: the timeline, then the case report
// (report.html and report.md) beside it.
type ReportCmd struct {
	TimelineCmd `embed:""`
	Case        string `help:"Case id the report shows, for loose inputs or to override what the bundles recorded (shown beside it)."`
	Examiner    string `help:"Examiner the report names, for loose inputs or to override what the bundles recorded (shown beside it)."`
}

// Run runs the command.
func (c *ReportCmd) Run(g *Globals, log zerolog.Logger) error {
	// Nothing found, some input unusable, or no usable input at all still
	// gets its report (saying so: the inputs and their problems), and the
	// exit code timeline gives it (1, 3 or 2).
	var nothing error
	// The report is read from timeline.jsonl and names its lines (the
	// whole text of every row is there), so it is written whatever else
	// --format asks for.
	if fs, err := analyze.ParseFormats(c.Format); err == nil && !slices.Contains(fs, analyze.FormatJSONL) {
		c.Format = analyze.FormatJSONL + "," + c.Format
		fmt.Println("report: timeline.jsonl is written too (the report is read from it and names its lines)")
	}
	if err := c.TimelineCmd.Run(g, log); err != nil {
		var written *writtenError
		if e, ok := err.(*exitError); !errors.As(err, &written) && (!ok || (e.code != exitNothing && e.code != exitPartial)) {
			return err
		}
		nothing = err
	}
	// The control surface (surface.jsonl, surface.md) too: the report
	// lists its changes and who wrote each entry.
	limits, err := bundleLimits(c.Identity)
	if err != nil {
		return err
	}
	ls, err := surface.WriteLimits(c.Output, limits)
	if err != nil {
		return &exitError{exitUnusable, "surface: " + err.Error()}
	}
	files, err := report.Write(report.Options{Dir: c.Output, Case: c.Case, Examiner: c.Examiner, Surface: ls.Entries})
	if err != nil {
		return &exitError{exitUnusable, err.Error()}
	}
	// run.json hashes the report and the surface files too.
	if err := analyze.AppendRunOutputs(c.Output, append(slices.Clone(ls.Paths), files...), nil); err != nil {
		return &exitError{exitUnusable, "run.json: " + err.Error()}
	}
	// Each file under its own label: surface.jsonl and surface.md are the
	// control surface, not the report.
	for _, f := range ls.Paths {
		fmt.Printf("surface: %s\n", f)
	}
	for _, f := range files {
		fmt.Printf("report: %s\n", f)
	}
	return nothing
}

package main

import (
	"fmt"

	"github.com/doubleagent/doubleagent/analyzer/report"
	"github.com/rs/zerolog"
)

// ReportCmd is `doubleagent report`: the timeline, then the case report
// (report.html and report.md) beside it.
type ReportCmd struct {
	TimelineCmd `embed:""`
}

// Run runs the command.
func (c *ReportCmd) Run(g *Globals, log zerolog.Logger) error {
	// Nothing found, or some input unusable, still gets its report
	// (saying so), and the exit code timeline gives it (1 or 3).
	var nothing error
	if err := c.TimelineCmd.Run(g, log); err != nil {
		if e, ok := err.(*exitError); !ok || (e.code != exitNothing && e.code != exitPartial) {
			return err
		}
		nothing = err
	}
	files, err := report.Write(report.Options{Dir: c.Output})
	if err != nil {
		return &exitError{exitUnusable, err.Error()}
	}
	for _, f := range files {
		fmt.Printf("report: %s\n", f)
	}
	return nothing
}

// Command doubleagent is the examiner's workstation tool: it verifies
// DoubleAgent bundles and turns them (or extracted collections, copied
// homes, mounted images) into one timeline. See analyzer/docs/usage.md.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/alecthomas/kong"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
)

// Version of the analyzer.
const Version = "0.1.0"

// Exit codes, documented in analyzer/docs/usage.md.
const (
	exitFound    = 0 // something found (timeline rows, a verified bundle)
	exitNothing  = 1 // nothing found, or verification failed
	exitUnusable = 2 // unusable input or options
	exitPartial  = 3 // outputs written, but some input was unusable
)

func main() {
	var cli CLI
	p, err := kong.New(&cli,
		kong.Name("doubleagent"),
		kong.Description("Verify DoubleAgent bundles and turn AI agents' transcripts into one forensic timeline."),
		kong.UsageOnError(),
		kong.Help(helpPrinter),
		kong.Vars{"version": Version, "identity_help": identityHelp},
		kong.Exit(func(code int) {
			if code != 0 {
				code = exitUnusable
			}
			os.Exit(code)
		}),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(exitUnusable)
	}
	kctx, err := p.Parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "doubleagent:", err)
		os.Exit(exitUnusable)
	}
	// One soft memory target for the whole run (see SoftMemoryLimit).
	_ = analyze.SoftMemoryLimit(0) // the process ends with os.Exit: nothing to restore
	stopProfiles, err := startProfiles(cli.CPUProfile, cli.MemProfile, forceFlag(kctx))
	if err != nil {
		fmt.Fprintln(os.Stderr, "doubleagent:", err)
		os.Exit(exitUnusable)
	}
	err = kctx.Run(&cli.Globals)
	if perr := stopProfiles(); perr != nil {
		fmt.Fprintln(os.Stderr, "doubleagent: profile:", perr)
		if err == nil {
			err = &exitError{exitUnusable, ""}
		}
	}
	os.Exit(exitCode(err))
}

// exitError carries an exit code and a message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// writtenError is an exit of timeline whose outputs are written all the
// same (no usable input: problems.jsonl and run.json say why), so that
// report still writes the report that says so.
type writtenError struct{ *exitError }

func (e *writtenError) Unwrap() error { return e.exitError }

func exitCode(err error) int {
	if err == nil {
		return exitFound
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(os.Stderr, "doubleagent:", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(os.Stderr, "doubleagent:", err)
	return exitUnusable
}

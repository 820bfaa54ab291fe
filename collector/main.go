// Command doubleagent-collector acquires AI agents' state from a live host
// or a mounted image into a DoubleAgent bundle. See collector/docs/usage.md.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/alecthomas/kong"
	"github.com/doubleagent/doubleagent/collector/collect"
)

// Exit codes (collector/docs/usage.md).
const (
	exitOK          = 0
	exitFailed      = 1 // write error (full disk), bundle partial; or no home found
	exitUsage       = 2 // bad options or unusable input
	exitInterrupted = 3 // SIGINT/SIGTERM: bundle valid, marked incomplete
)

func main() {
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name("doubleagent-collector"),
		kong.Description("Collect AI agents' transcripts, stores and settings from every home into a hashed bundle."),
		kong.UsageOnError(),
		kong.Help(helpPrinter),
		kong.Vars{"version": collect.Version},
		kong.Exit(func(code int) { os.Exit(code) }),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(exitUsage)
	}
	kctx, err := parser.Parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "doubleagent-collector:", err)
		os.Exit(exitUsage)
	}
	if err := cli.checkRoot(); err != nil {
		fmt.Fprintln(os.Stderr, "doubleagent-collector:", err)
		os.Exit(exitUsage)
	}
	stopProfiles, err := cli.startProfiles()
	if err != nil {
		fmt.Fprintln(os.Stderr, "doubleagent-collector:", err)
		os.Exit(exitUsage)
	}
	err = kctx.Run(&cli)
	if perr := stopProfiles(); perr != nil {
		fmt.Fprintln(os.Stderr, "doubleagent-collector: profile:", perr)
		if err == nil {
			err = usageError{perr}
		}
	}
	os.Exit(exitCode(err))
}

func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "doubleagent-collector:", err)
		return exitUsage
	case errors.Is(err, collect.ErrNoHome):
		var nh *collect.NoHomeError
		if errors.As(err, &nh) && len(nh.Skipped) > 0 {
			fmt.Fprintln(os.Stderr, "doubleagent-collector: "+nh.Error()+"; so nothing under a home was collected (the bundle records the walk); check --root and --users")
			return exitFailed
		}
		fmt.Fprintln(os.Stderr, "doubleagent-collector: no home was found, so nothing under a home was collected (the bundle records the empty walk); check --root and --users")
		return exitFailed
	case errors.Is(err, collect.ErrInterrupted):
		fmt.Fprintln(os.Stderr, "doubleagent-collector: interrupted: the bundle is closed and marked incomplete")
		return exitInterrupted
	default:
		fmt.Fprintln(os.Stderr, "doubleagent-collector:", err)
		return exitFailed
	}
}

type usageError struct{ error }

// exitCodesHelp ends --help (collector/docs/usage.md has the same table).
const exitCodesHelp = `Exit codes:
  0  the bundle is complete
  1  the bundle could not be written whole (a write error such as a full
     disk: a partial bundle without a .sha256 sidecar is left), or no home
     was found (the bundle is written and records the empty walk)
  2  bad options, or the output path refused (it exists, or lies inside the
     evidence)
  3  interrupted (SIGINT, SIGTERM): the bundle is closed, valid, and marked
     incomplete`

// helpPrinter prints kong's help, then the exit codes.
func helpPrinter(options kong.HelpOptions, ctx *kong.Context) error {
	if err := kong.DefaultHelpPrinter(options, ctx); err != nil {
		return err
	}
	_, err := fmt.Fprintln(ctx.Stdout, "\n"+exitCodesHelp)
	return err
}

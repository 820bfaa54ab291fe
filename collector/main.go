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
	exitFailed      = 1 // write error (full disk), bundle partial
	exitUsage       = 2 // bad options or unusable input
	exitInterrupted = 3 // SIGINT/SIGTERM: bundle valid, marked incomplete
)

func main() {
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name("doubleagent-collector"),
		kong.Description("Collect AI agents' transcripts, stores and settings from every home into a hashed bundle."),
		kong.UsageOnError(),
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
	err = kctx.Run(&cli)
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
	case errors.Is(err, collect.ErrInterrupted):
		fmt.Fprintln(os.Stderr, "doubleagent-collector: interrupted: the bundle is closed and marked incomplete")
		return exitInterrupted
	default:
		fmt.Fprintln(os.Stderr, "doubleagent-collector:", err)
		return exitFailed
	}
}

type usageError struct{ error }

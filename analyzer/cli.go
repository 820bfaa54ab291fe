package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/kong"
	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// Globals are flags every command takes.
type Globals struct {
	LogLevel  string           `help:"Log level: ${enum}." enum:"debug,info,warn,error" default:"warn"`
	LogFormat string           `help:"Log format on stderr: ${enum} (auto: console on a terminal, JSON otherwise)." enum:"auto,console,json" default:"auto"`
	Version   kong.VersionFlag `help:"Print the version and exit."`
}

// CLI is the command tree.
type CLI struct {
	Globals
	Timeline  TimelineCmd  `cmd:"" help:"Write the timeline, sessions, inventory and problems of one or more inputs."`
	Report    ReportCmd    `cmd:"" help:"Write the timeline and a case report (report.html, self-contained, and report.md) of one or more inputs."`
	Verify    VerifyCmd    `cmd:"" help:"Recompute every hash of one or more bundles; exit 0 only when all match."`
	Detect    DetectCmd    `cmd:"" help:"List the agents found per host and user, with files, bytes and status."`
	Catalog   CatalogCmd   `cmd:"" help:"Print the catalog of agents and the paths each keeps."`
	Parsers   ParsersCmd   `cmd:"" help:"List the registered parsers."`
	Inventory InventoryCmd `cmd:"" help:"Merge doubleagent-collector --inventory lines from many hosts into one CSV."`
}

// AfterApply builds the logger and binds it for commands' Run methods.
func (g *Globals) AfterApply(kctx *kong.Context) error {
	kctx.Bind(g.logger())
	return nil
}

// isTerminal reports whether f is a terminal (not merely a character
// device such as /dev/null), as the collector decides it.
func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

func (g *Globals) logger() zerolog.Logger {
	lvl, err := zerolog.ParseLevel(g.LogLevel)
	if err != nil {
		lvl = zerolog.WarnLevel
	}
	var w io.Writer = os.Stderr
	if g.LogFormat == "console" || (g.LogFormat == "auto" && isTerminal(os.Stderr)) {
		w = zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: time.RFC3339}
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}

// maxTerminalText bounds one evidence string printed on the terminal: a
// 900 KB host name from bundle.json is shown by its start and its length.
const maxTerminalText = 512

// clean makes text from evidence safe to print on a terminal: control
// characters (ESC, BEL, ...) are shown as \xNN instead of being sent, and
// the text is cut at maxTerminalText bytes with its full length said.
func clean(s string) string { return cleanN(s, maxTerminalText) }

// cleanN is clean with a bound of max bytes of the original text.
func cleanN(s string, max int) string {
	cut := ""
	if len(s) > max {
		k := max
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		cut = fmt.Sprintf("...(%d bytes in all)", len(s))
		s = s[:k]
	}
	if !strings.ContainsFunc(s, isControl) {
		return s + cut
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String() + cut
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

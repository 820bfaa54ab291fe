package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"
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
	Surface   SurfaceCmd   `cmd:"" help:"List every hook, MCP server, skill, agent, command, plugin and rules file each agent would load (surface.jsonl, surface.md), with file hashes and MACB times."`
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

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
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

// clean makes text from evidence safe to print on a terminal: control
// characters (ESC, BEL, ...) are shown as \xNN instead of being sent.
func clean(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

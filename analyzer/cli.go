package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/kong"
	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// Globals are flags every command takes.
type Globals struct {
	LogLevel  string           `help:"Log level: ${enum}." enum:"debug,info,warn,error" default:"warn"`
	LogFormat string           `help:"Log format on stderr: ${enum} (auto: console on a terminal, JSON otherwise)." enum:"auto,console,json" default:"auto"`
	Version   kong.VersionFlag `help:"Print the version and exit."`
	// Profiles of the run, for anyone measuring (go tool pprof FILE).
	CPUProfile string `name:"cpuprofile" help:"Write a Go CPU profile of the whole run to FILE (go tool pprof); never over an existing file unless --force." type:"path" placeholder:"FILE"`
	MemProfile string `name:"memprofile" help:"Write a Go heap profile to FILE when the run ends (go tool pprof); never over an existing file unless --force." type:"path" placeholder:"FILE"`
}

// startProfiles creates the profile files asked for (as outputs are
// created: never through a link, never over an existing file unless force,
// which replaces a regular file only) and starts the CPU profile; stop
// ends it and writes the heap profile. Both files are created before the
// run, so a refused path fails at once.
func startProfiles(cpu, mem string, force bool) (stop func() error, err error) {
	create := func(p string) (*os.File, error) {
		if force {
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				if err := os.Remove(p); err != nil {
					return nil, err
				}
			}
		}
		return bundle.CreateNew(p, 0o644)
	}
	var cf, mf *os.File
	if cpu != "" {
		if cf, err = create(cpu); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cf); err != nil {
			cf.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	if mem != "" {
		if mf, err = create(mem); err != nil {
			if cf != nil {
				pprof.StopCPUProfile()
				cf.Close()
			}
			return nil, fmt.Errorf("--memprofile: %w", err)
		}
	}
	return func() error {
		var first error
		if cf != nil {
			pprof.StopCPUProfile()
			first = cf.Close()
		}
		if mf != nil {
			runtime.GC() // the heap profile as of the last collection
			err := pprof.WriteHeapProfile(mf)
			if cerr := mf.Close(); err == nil {
				err = cerr
			}
			if first == nil {
				first = err
			}
		}
		return first
	}, nil
}

// forceFlag reports whether the command run was given --force.
func forceFlag(kctx *kong.Context) bool {
	for _, f := range kctx.Flags() {
		if f.Name == "force" {
			v, _ := kctx.FlagValue(f).(bool)
			return v
		}
	}
	return false
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
	Merge     MergeCmd     `cmd:"" help:"Join the output folders of timeline runs over parts of one case (per bundle or per shard) into the case's folder, as one run over every input would write it."`
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
// characters (ESC, BEL, ...) are shown as \xNN instead of being sent,
// credential-shaped substrings as [redacted] (bundle.MaskSecrets), and
// the text is cut at maxTerminalText bytes with its full length said.
func clean(s string) string { return cleanN(s, maxTerminalText) }

// plainErr is an error about a path the examiner named, in plain words
// ("no such file or folder: PATH", not "lstat PATH: no such file or
// directory"), cleaned for the terminal.
func plainErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return clean(analyze.PlainPathError(pe.Path, err))
	}
	return clean(err.Error())
}

// cleanN is clean with a bound of max bytes of the original text.
func cleanN(s string, max int) string {
	s = bundle.MaskSecrets(s) // a token inside a path or value is not printed
	cut := ""
	if len(s) > max {
		k := max
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		cut = fmt.Sprintf("...(%d bytes in all)", len(s))
		s = s[:k]
	}
	if !strings.ContainsFunc(s, isControl) && !strings.ContainsFunc(s, timeline.IsHidden) {
		return s + cut
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		if timeline.IsHidden(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String() + cut
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

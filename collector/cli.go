package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
	"github.com/doubleagent/doubleagent/collector/collect"
	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// CLI is the collector's command line. It has one job, so the collection
// is the default; --list and --inventory are alternative modes.
type CLI struct {
	Root        string           `help:"Collect from a mounted image or copied tree at DIR, taken as '/'." placeholder:"DIR"`
	Host        string           `help:"Host name to record (default: the live host's, or DIR/etc/hostname with --root)." placeholder:"NAME"`
	Output      string           `short:"o" help:"Bundle file to write, or '-' for stdout (default: <host>_<UTC time>_doubleagent.tar.zst in the working folder)." placeholder:"FILE"`
	Users       []string         `help:"Collect only these users (comma-separated account names)." sep:","`
	MaxFileSize byteSize         `help:"Skip files larger than this size, in bytes or with K, M or G (binary: 100M = 100 MiB); recorded as skipped_size." default:"256MiB" placeholder:"SIZE"`
	Full        bool             `help:"Lift every size limit."`
	NoSecrets   bool             `help:"Do not copy token stores and other secrets (recorded as skipped_secret); by default they are collected and flagged secret."`
	Case        string           `help:"Case identifier to record in the bundle."`
	Examiner    string           `help:"Examiner name to record in the bundle."`
	EncryptTo   []string         `help:"Encrypt the bundle with age to this recipient (age1..., or a file of recipients one a line; repeatable): the file is <name>.tar.zst.age and its .sha256 sidecar hashes the ciphertext. Read it with doubleagent --identity." sep:"none" placeholder:"RECIPIENT"`
	List        bool             `help:"Print the catalog (agents, targets and paths per OS) as a table and exit."`
	JSON        bool             `help:"With --list: print the catalog as JSON (the document of doubleagent catalog --json)."`
	Inventory   bool             `help:"Write nothing: walk as a collection would (same options) and print one JSON line for the host and one per user and agent (files, bytes, first and last mtime, projects, rows per status, presence, found_via)."`
	LogLevel    string           `help:"Log level: ${enum}." enum:"debug,info,warn,error" default:"info"`
	LogFormat   string           `help:"Log format on stderr: ${enum} (auto: console on a terminal, JSON otherwise)." enum:"auto,console,json" default:"auto"`
	Version     kong.VersionFlag `help:"Print the version and exit."`
	CPUProfile  string           `name:"cpuprofile" help:"Write a Go CPU profile of the run to FILE (go tool pprof); never over an existing file, never inside the evidence." placeholder:"FILE"`
	MemProfile  string           `name:"memprofile" help:"Write a Go heap profile to FILE when the run ends (go tool pprof); never over an existing file, never inside the evidence." placeholder:"FILE"`
}

// startProfiles creates the profile files asked for as the bundle is
// created (never through a link, never over what is there, never inside
// the tree collected) and starts the CPU profile; stop ends it and writes
// the heap profile. Both files are created before the collection.
func (c *CLI) startProfiles() (stop func() error, err error) {
	root := "/"
	if c.Root != "" {
		if root, err = filepath.Abs(c.Root); err != nil {
			return nil, err
		}
	}
	create := func(flag, p string) (*os.File, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		if why := collect.OutputInsideEvidence(abs, root); why != "" {
			return nil, fmt.Errorf("%s: refusing to write %s: %s", flag, abs, why)
		}
		f, err := bundle.CreateNew(abs, 0o640)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		return f, nil
	}
	var cf, mf *os.File
	if c.CPUProfile != "" {
		if cf, err = create("--cpuprofile", c.CPUProfile); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(cf); err != nil {
			cf.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	if c.MemProfile != "" {
		if mf, err = create("--memprofile", c.MemProfile); err != nil {
			if cf != nil {
				pprof.StopCPUProfile()
				cf.Close()
			}
			return nil, err
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

// isTerminal reports whether f is a terminal (not merely a character
// device such as /dev/null).
func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

func (c *CLI) logWriter() io.Writer { return c.logWriterTo(os.Stderr) }

// logWriterTo is logWriter writing to out (stderr, or the terminal shared
// with the progress line).
func (c *CLI) logWriterTo(out io.Writer) io.Writer {
	lvl, _ := zerolog.ParseLevel(c.LogLevel)
	var w io.Writer = maskWriter{out}
	if c.LogFormat == "console" || (c.LogFormat == "auto" && isTerminal(os.Stderr)) {
		w = zerolog.ConsoleWriter{Out: maskWriter{out}, TimeFormat: time.RFC3339,
			// Paths and values from the evidence: no control or bidi
			// character reaches the terminal (printable).
			FormatMessage:    func(i any) string { return printable(fmt.Sprint(i)) },
			FormatFieldValue: func(i any) string { return printable(fmt.Sprint(i)) }}
	}
	// The bundle's own log takes every level (collect.Collect joins the
	// two with zerolog.MultiLevelWriter); stderr only --log-level and up.
	return &zerolog.FilteredLevelWriter{Writer: zerolog.LevelWriterAdapter{Writer: w}, Level: lvl}
}

// checkRoot says in plain words why --root cannot be collected ("no such
// file or folder: DIR", not a raw stat error).
func (c *CLI) checkRoot() error {
	if c.Root == "" {
		return nil
	}
	fi, err := os.Stat(c.Root)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("--root: no such file or folder: %s", c.Root)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("--root: permission denied: %s", c.Root)
	case err != nil:
		return fmt.Errorf("--root: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("--root: not a folder: %s (--root takes the folder of a mounted image or copied tree)", c.Root)
	}
	return nil
}

// Run performs the selected mode.
func (c *CLI) Run() error {
	if c.JSON && !c.List {
		return usageError{fmt.Errorf("--json goes with --list")}
	}
	if c.List {
		return printList(os.Stdout, c.JSON)
	}
	root := "/"
	if c.Root != "" {
		abs, err := filepath.Abs(c.Root)
		if err != nil {
			return usageError{err}
		}
		root = abs
	}
	if c.Inventory {
		return collect.Inventory(os.Stdout, collect.Options{Root: root, Host: c.Host, Users: c.Users, MaxFileSize: int64(c.MaxFileSize), Full: c.Full, NoSecrets: c.NoSecrets})
	}
	recips, err := c.recipients()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A reader of stdout or stderr that goes away (| head) makes the write
	// fail with EPIPE instead of killing the collector with SIGPIPE: a log
	// line then goes nowhere and the bundle is still finished; -o - ends
	// with the write error (below).
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	var stderr io.Writer = os.Stderr
	var tm *term
	if isTerminal(os.Stderr) && c.Output != "-" {
		tm = newTerm(os.Stderr)
		stderr = tm.logWriter()
	}
	opts := collect.Options{
		Root: root, Host: c.Host, Users: c.Users, MaxFileSize: int64(c.MaxFileSize), Full: c.Full,
		NoSecrets: c.NoSecrets, Case: c.Case, Examiner: c.Examiner, CommandLine: os.Args,
		LogWriter: c.logWriterTo(stderr),
	}
	var out io.Writer
	var file, sidecar *os.File
	var path string
	hs := sha256.New()
	sent := &countWriter{}
	if c.Output == "-" {
		if isTerminal(os.Stdout) {
			return usageError{fmt.Errorf("-o - writes the binary bundle to stdout, which is a terminal: redirect or pipe it")}
		}
		sent.w = os.Stdout
		out = sent
	} else {
		path = c.Output
		if path == "" {
			host := c.Host
			if host == "" {
				host = collect.HostName(root)
			}
			path = fmt.Sprintf("%s_%s_doubleagent.tar.zst", safeName(host), time.Now().UTC().Format("20060102T150405Z"))
			if recips != nil {
				path += ".age"
			}
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return usageError{err}
		}
		if why := collect.OutputInsideEvidence(abs, root); why != "" {
			return usageError{fmt.Errorf("refusing to write %s: %s", abs, why)}
		}
		// Both files are created before anything is collected, never
		// through a link and never over what is there.
		f, err := bundle.CreateNew(abs, 0o640)
		if err != nil {
			return usageError{fmt.Errorf("create output: %w", err)}
		}
		sidecar, err = bundle.CreateNew(abs+".sha256", 0o644)
		if err != nil {
			f.Close()
			os.Remove(abs)
			return usageError{fmt.Errorf("create output sidecar: %w", err)}
		}
		file, path = f, abs
		opts.ExcludePaths = []string{abs, abs + ".sha256"}
		out = io.MultiWriter(f, hs)
	}
	out, seal, err := encryptLayer(out, recips)
	if err != nil {
		if file != nil {
			file.Close()
			sidecar.Close()
			os.Remove(path)
			os.Remove(path + ".sha256")
		}
		return usageError{err}
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	if tm != nil {
		opts.Progress = tm.progress
	}
	res, runErr := collect.Run(ctx, bw, opts)
	ferr := bw.Flush()
	if err := seal(); err != nil && ferr == nil {
		ferr = err
	}
	if tm != nil {
		tm.finish()
	}
	if file != nil {
		if err := file.Close(); err != nil && ferr == nil {
			ferr = err
		}
		// The sidecar vouches for a whole bundle: none for one whose writing
		// failed (a full disk would leave it empty or naming a cut file).
		if ferr == nil && (runErr == nil || errors.Is(runErr, collect.ErrInterrupted) || errors.Is(runErr, collect.ErrNoHome)) {
			sc := bundle.Sidecar{Bundle: hex.EncodeToString(hs.Sum(nil)), Name: filepath.Base(path)}
			if res != nil {
				sc.Header, sc.Manifest = res.HeaderSHA256, res.ManifestSHA256
			}
			if err := bundle.WriteSidecarFull(sidecar, sc); err != nil {
				os.Remove(path + ".sha256")
				ferr = err
			}
		} else {
			sidecar.Close()
			os.Remove(path + ".sha256")
		}
	}
	if runErr == nil && ferr != nil {
		runErr = fmt.Errorf("write %s: %w", path, ferr)
	}
	if c.Output == "-" && (errors.Is(runErr, syscall.EPIPE) || errors.Is(ferr, syscall.EPIPE)) {
		runErr = fmt.Errorf("%w: the reader of stdout closed the pipe after %d bytes: the bundle it got is cut short", collect.ErrWrite, sent.n)
	}
	if res != nil {
		where := path
		if where == "" {
			where = "stdout"
		}
		what := "bundle"
		if runErr != nil && !errors.Is(runErr, collect.ErrInterrupted) && !errors.Is(runErr, collect.ErrNoHome) {
			what = "partial bundle (write failed, no .sha256 sidecar)"
		}
		fmt.Fprintf(os.Stderr, "%s %s written to %s: %d files, %d bytes collected; statuses %s\n",
			what, res.BundleID, where, res.Summary.Files, res.Summary.BytesCollected, formatCounts(res.Summary.Counts))
		if line := unreadLine(res.Summary.Files, res.Summary.Counts[bundle.StatusErrorRead]); line != "" {
			fmt.Fprintln(os.Stderr, line)
		}
	}
	return runErr
}

// unreadLine is the summary's warning about the files found but not read
// (error_read): a bundle whose every file failed is complete and valid
// (exit 0, it records the walk) but must not read as a clean success.
func unreadLine(files, errRead int) string {
	switch {
	case errRead == 0:
		return ""
	case files == 0:
		return fmt.Sprintf("doubleagent-collector: warning: no file was collected: every one of the %d file(s) found could not be read (error_read; manifest.jsonl names each and why): the bundle records the walk but holds no agent file", errRead)
	}
	return fmt.Sprintf("doubleagent-collector: warning: %d file(s) found could not be read (error_read; manifest.jsonl names each and why): the bundle holds the other %d", errRead, files)
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func formatCounts(m map[string]int) string {
	var parts []string
	for _, s := range bundle.Statuses {
		if m[s] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", s, m[s]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// byteSize is a --max-file-size value: bundle.ParseSize's syntax, the
// same the analyzer's --max-line takes.
type byteSize int64

// Decode reads the flag's value with bundle.ParseSize.
func (b *byteSize) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("size", &s); err != nil {
		return err
	}
	n, err := bundle.ParseSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// safeName makes a host name fit for the default bundle name: path
// separators, ':' and control characters become '_', and so do leading
// dots, so the bundle is never a hidden file (".._etc_x_...") nor named
// "." or "..".
func safeName(s string) string {
	m := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < 0x20 {
			return '_'
		}
		return r
	}, s)
	trimmed := strings.TrimLeft(m, ".")
	return strings.Repeat("_", len(m)-len(trimmed)) + trimmed
}

// formatProgress renders one progress line: files copied, bytes copied,
// the mean rate since the start, and the agent and user being walked.
// Agent and user names come from the catalog and the host's accounts; a
// control character in a user name is shown as '?'.
func formatProgress(p collect.Progress, elapsed time.Duration) string {
	rate := "-"
	if elapsed > 0 {
		rate = formatBytes(int64(float64(p.Bytes)/elapsed.Seconds())) + "/s"
	}
	files := "files"
	if p.Files == 1 {
		files = "file"
	}
	s := fmt.Sprintf("%d %s, %s, %s", p.Files, files, formatBytes(p.Bytes), rate)
	if p.Agent != "" {
		s += "  " + p.Agent + " (" + printable(p.User) + ")"
	}
	return s
}

// formatBytes renders n bytes with binary units, three significant
// digits from KiB up: 512 B, 1.50 KiB, 23.4 MiB, 117 GiB.
func formatBytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := -1
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	switch {
	case f < 10:
		return fmt.Sprintf("%.2f %s", f, units[u])
	case f < 100:
		return fmt.Sprintf("%.1f %s", f, units[u])
	}
	return fmt.Sprintf("%.0f %s", f, units[u])
}

// maskWriter writes each log event (one JSON object or console line per
// Write, as zerolog writes them) with its credential-shaped substrings
// written [redacted] (bundle.MaskSecrets): a token inside a relocation
// path (CLAUDE_CONFIG_DIR=/x/ghp_...) is not printed. The replacement
// holds no JSON-special character, so a JSON line stays valid.
type maskWriter struct{ w io.Writer }

func (m maskWriter) Write(p []byte) (int, error) {
	if !bundle.SecretShapes.Match(p) {
		return m.w.Write(p)
	}
	if _, err := io.WriteString(m.w, bundle.MaskSecrets(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// printable makes evidence text (a user name, a path, a log field) safe
// to print on a terminal, as the analyzer's terminal cleaner does: a C0 or
// C1 control character is written \xNN, a bidi control or other invisible
// format character (U+061C, U+200B-U+200F, U+202A-U+202E, U+2060-U+2064,
// U+2066-U+2069, tags U+E0000-U+E007F) \uXXXX, so that neither an escape
// sequence nor a bidi override reaches the terminal.
func printable(s string) string {
	if !strings.ContainsFunc(s, mustEscape) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case mustEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func mustEscape(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x061C ||
		r >= 0x200B && r <= 0x200F || r >= 0x202A && r <= 0x202E ||
		r >= 0x2060 && r <= 0x2064 || r >= 0x2066 && r <= 0x2069 || r >= 0xE0000 && r <= 0xE007F
}

// printList prints the catalog: the table `doubleagent catalog` prints, or
// with asJSON the document of `doubleagent catalog --json` (one rendering
// each, in package catalog).
func printList(w io.Writer, asJSON bool) error {
	if !asJSON {
		return catalog.WriteTable(w, catalog.All())
	}
	b, err := catalog.JSON(catalog.All())
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

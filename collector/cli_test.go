package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/rs/zerolog"
)

// TestLogWriterFilters: stderr gets --log-level and up, while the bundle's
// own log (joined with zerolog.MultiLevelWriter, as collect.Collect does)
// keeps every level.
func TestLogWriterFilters(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	c := &CLI{LogLevel: "warn", LogFormat: "json"}
	lw := c.logWriter()
	os.Stderr = stderr
	var bundleLog bytes.Buffer
	log := zerolog.New(zerolog.MultiLevelWriter(&bundleLog, lw))
	log.Debug().Msg("walk detail")
	log.Info().Msg("walking home")
	log.Warn().Msg("unreadable file")
	w.Close()
	var got bytes.Buffer
	if _, err := got.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	if s := got.String(); strings.Count(s, "\n") != 1 || !strings.Contains(s, `"message":"unreadable file"`) {
		t.Errorf("stderr at warn: %q", s)
	}
	if s := bundleLog.String(); strings.Count(s, "\n") != 3 {
		t.Errorf("bundle log: %q", s)
	}
}

// TestSafeNameNoLeadingDot: the default bundle name derived from a hostile
// host name is never hidden and never climbs out of the working folder.
func TestSafeNameNoLeadingDot(t *testing.T) {
	for in, want := range map[string]string{
		"../../etc/x": "___.._etc_x",
		".hidden":     "_hidden",
		"..":          "__",
		"a.b:c\\d\n":  "a.b_c_d_",
		"host.lan":    "host.lan",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMaxFileSizeSuffixes: --max-file-size takes the sizes the analyzer's
// --max-line takes (bundle.ParseSize), and refuses what is not a size.
func TestMaxFileSizeSuffixes(t *testing.T) {
	for in, want := range map[string]int64{"100M": 100 << 20, "64MiB": 64 << 20, "1G": 1 << 30, "4096": 4096, "8k": 8 << 10} {
		var cli CLI
		p, err := kong.New(&cli)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Parse([]string{"--max-file-size", in}); err != nil {
			t.Fatalf("--max-file-size %s: %v", in, err)
		}
		if int64(cli.MaxFileSize) != want {
			t.Errorf("--max-file-size %s = %d, want %d", in, cli.MaxFileSize, want)
		}
	}
	var cli CLI
	p, _ := kong.New(&cli)
	if _, err := p.Parse(nil); err != nil || cli.MaxFileSize != 256<<20 {
		t.Errorf("default --max-file-size = %d, %v; want %d", cli.MaxFileSize, err, 256<<20)
	}
	for _, in := range []string{"100X", "-5", "1.5G"} {
		var cli CLI
		p, _ := kong.New(&cli)
		if _, err := p.Parse([]string{"--max-file-size=" + in}); err == nil || !strings.Contains(err.Error(), "is not a size") {
			t.Errorf("--max-file-size %s: error %v, want one saying it is not a size", in, err)
		}
	}
}

// TestPrintableEscapesControlAndBidi: control bytes are written \xNN and
// bidi controls and other invisible format characters \uXXXX (T11).
func TestPrintableEscapesControlAndBidi(t *testing.T) {
	for in, want := range map[string]string{
		"/home/a\u202egpj.exe":              `/home/a\u202egpj.exe`,
		"x\u2066y\u2069\u200e\u200f\u061cz": `x\u2066y\u2069\u200e\u200f\u061cz`,
		"bob\x1b[2J\u009b":                  `bob\x1b[2J\x9b`,
		"plain/é":                           "plain/é",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConsoleLogEscapesEvidence: a path with a bidi override and an escape
// sequence is logged on the console with both escaped.
func TestConsoleLogEscapesEvidence(t *testing.T) {
	var out bytes.Buffer
	c := &CLI{LogLevel: "info", LogFormat: "console"}
	log := zerolog.New(c.logWriterTo(&out))
	log.Warn().Str("path", "/h/a\u202egpj.exe\x1b[2J").Msg("unreadable \u2066file")
	s := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(out.String(), "") // colours
	want := `<nil> WRN unreadable \u2066file path="/h/a\u202egpj.exe\x1b[2J"` + "\n"
	if s != want {
		t.Errorf("console log = %q, want %q", s, want)
	}
}

// TestLogMasksSecretsInPaths: a token inside a relocation path is written
// [redacted] on stderr, in the JSON log and on the console (T13).
func TestLogMasksSecretsInPaths(t *testing.T) {
	for _, format := range []string{"json", "console"} {
		var out bytes.Buffer
		c := &CLI{LogLevel: "info", LogFormat: format}
		log := zerolog.New(c.logWriterTo(&out))
		log.Info().Str("folder", "/nonexist/ghp_ABCDEFGHIJKLMNOPQRSTuvwx").Str("found_via", "CLAUDE_CONFIG_DIR in ~/.bashrc").Msg("relocated agent folder named but not there")
		s := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(out.String(), "")
		want := map[string]string{
			"json":    `{"level":"info","folder":"/nonexist/[redacted]","found_via":"CLAUDE_CONFIG_DIR in ~/.bashrc","message":"relocated agent folder named but not there"}` + "\n",
			"console": `<nil> INF relocated agent folder named but not there folder=/nonexist/[redacted] found_via="CLAUDE_CONFIG_DIR in ~/.bashrc"` + "\n",
		}[format]
		if s != want {
			t.Errorf("%s log = %q, want %q", format, s, want)
		}
	}
}

// TestUnreadLine: a bundle whose every file was unreadable ends with a
// warning, not only "the bundle is complete" (T14).
func TestUnreadLine(t *testing.T) {
	for _, c := range []struct {
		files, errRead int
		want           string
	}{
		{3, 0, ""},
		{0, 2, "doubleagent-collector: warning: no file was collected: every one of the 2 file(s) found could not be read (error_read; manifest.jsonl names each and why): the bundle records the walk but holds no agent file"},
		{5, 1, "doubleagent-collector: warning: 1 file(s) found could not be read (error_read; manifest.jsonl names each and why): the bundle holds the other 5"},
	} {
		if got := unreadLine(c.files, c.errRead); got != c.want {
			t.Errorf("unreadLine(%d, %d) = %q, want %q", c.files, c.errRead, got, c.want)
		}
	}
}

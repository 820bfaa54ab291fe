//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/catalog"
	"github.com/doubleagent/doubleagent/collector/collect"
)

// TestNoHomeExitsOne: a --root with no home (an empty folder) says so on
// stderr and in the bundle's log, still writes a whole bundle with its
// sidecar, and exits 1; so does --users naming nobody there.
func TestNoHomeExitsOne(t *testing.T) {
	bin := buildCollector(t)
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"empty root", nil, "no home was found: nothing under a home was collected"},
		{"no such user", []string{"--users", "mallory"}, "no home of these users was found: nothing under a home was collected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.args != nil {
				writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), `{"display":"x"}`+"\n")
			}
			out := filepath.Join(t.TempDir(), "b.tar.zst")
			cmd := exec.Command(bin, append([]string{"--root", root, "-o", out}, tc.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want 1\n%s", err, stderr.String())
			}
			se := stderr.String()
			if !strings.Contains(se, `"level":"error"`) || !strings.Contains(se, tc.msg) {
				t.Errorf("stderr has no error-level log line %q:\n%s", tc.msg, se)
			}
			if !strings.HasSuffix(se, "doubleagent-collector: no home was found, so nothing under a home was collected (the bundle records the empty walk); check --root and --users\n") {
				t.Errorf("stderr does not end with the no-home line:\n%s", se)
			}
			if !strings.Contains(se, "written to "+out+": 0 files, 0 bytes collected") {
				t.Errorf("no summary line:\n%s", se)
			}
			if tc.args == nil && !strings.Contains(se, "the image has no readable /etc/hostname: recorded as unknown-host (give --host NAME)") {
				t.Errorf("no word on the unknown host name:\n%s", se)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			_, res, err := bundle.Verify(f, nil)
			if err != nil || len(res.Problems) != 0 || !res.Complete || res.Members != 0 {
				t.Fatalf("bundle: %v %+v", err, res)
			}
			if !strings.Contains(string(res.Log), tc.msg) {
				t.Errorf("bundle log has no %q:\n%s", tc.msg, res.Log)
			}
			if sc, err := bundle.CheckSidecar(out); err != nil || !sc.Present || !sc.OK {
				t.Errorf("sidecar %+v %v", sc, err)
			}
		})
	}
}

// TestHelpEndsWithExitCodes: --help ends with the exit codes, and
// usage.md's table has the same codes.
func TestHelpEndsWithExitCodes(t *testing.T) {
	bin := buildCollector(t)
	out, err := exec.Command(bin, "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(out), "\n\n"+exitCodesHelp+"\n") {
		t.Fatalf("--help does not end with the exit codes:\n%s", out)
	}
	doc, err := os.ReadFile("docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{"| 0 | bundle complete; files found but unreadable are `error_read` rows of the manifest, and a last stderr line `warning: N file(s) found could not be read` counts them", "| 1 | a write error (for example a full disk): a partial bundle was left without its sidecar; or no home was found: the bundle is written whole and records the empty walk |", "| 2 |", "| 3 |"} {
		if !strings.Contains(string(doc), row) {
			t.Errorf("usage.md has no row %q", row)
		}
	}
}

// TestProgressOnlyOnATerminal: with stderr a pipe, no progress line is
// drawn; with stderr a terminal (a pty), the progress line shows files,
// bytes and the rate.
func TestProgressOnlyOnATerminal(t *testing.T) {
	bin := buildCollector(t)
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "etc/hostname"), "prog\n")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), strings.Repeat(`{"display":"x"}`+"\n", 200))
	writeFile(t, filepath.Join(root, "home/alice/.claude/settings.json"), `{}`)

	cmd := exec.Command(bin, "--root", root, "-o", filepath.Join(t.TempDir(), "p.tar.zst"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if s := stderr.String(); strings.Contains(s, "\r") || strings.Contains(s, "\x1b[K") || strings.Contains(s, "/s ") {
		t.Errorf("progress drawn on a pipe:\n%q", s)
	}

	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty on this machine: %v", err)
	}
	defer ptmx.Close()
	cmd = exec.Command(bin, "--root", root, "-o", filepath.Join(t.TempDir(), "p.tar.zst"), "--log-level", "error")
	cmd.Stderr = tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptmx) // EIO once the child has exited
		got <- b
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	var b []byte
	select {
	case b = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("pty not closed")
	}
	re := regexp.MustCompile(`\r\x1b\[K[0-9]+ files?, [0-9.]+ (B|KiB|MiB), [0-9.]+ (B|KiB|MiB|GiB)/s  claude-code \(alice\)`)
	if !re.Match(b) {
		t.Errorf("no progress line on the terminal:\n%q", b)
	}
}

// TestProgressEndsBeforeLog: on a terminal with the log at info, every log
// line starts on a line of its own (the progress line is erased first and
// drawn again after it), and the last progress line, with the final
// counts, is ended before the summary line.
func TestProgressEndsBeforeLog(t *testing.T) {
	bin := buildCollector(t)
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "etc/hostname"), "prog\n")
	for i := range 40 {
		writeFile(t, filepath.Join(root, fmt.Sprintf("home/alice/.claude/projects/p/%02d.jsonl", i)), strings.Repeat(`{"type":"user"}`+"\n", 2000))
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty on this machine: %v", err)
	}
	defer ptmx.Close()
	cmd := exec.Command(bin, "--root", root, "-o", filepath.Join(t.TempDir(), "p.tar.zst"), "--log-level", "info")
	cmd.Stderr = tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptmx)
		got <- b
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	var b []byte
	select {
	case b = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("pty not closed")
	}
	// The console log's colours are dropped; the erase (\x1b[K) is kept.
	s := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(string(b), "")
	// A progress line is only ever followed by the erase that precedes a
	// log line or a redraw, or by the end of its line.
	bad := regexp.MustCompile(`claude-code \(alice\)([^\r]|\r[^\x1b\n])`)
	if m := bad.FindStringIndex(s); m != nil {
		t.Errorf("a progress line runs into what follows at byte %d:\n%q", m[0], s)
	}
	for _, msg := range []string{"collection started", "walking home", "collection ended"} {
		if !regexp.MustCompile(`(^|\n|\r\x1b\[K)\S+ INF ` + msg).MatchString(s) {
			t.Errorf("log line %q does not start a line:\n%q", msg, s)
		}
	}
	if !regexp.MustCompile(`\r\x1b\[K40 files, 1\.22 MiB, [0-9.]+ (B|KiB|MiB|GiB)/s  claude-code \(alice\)\r\nbundle [0-9a-f-]+ written to `).MatchString(s) {
		t.Errorf("the final progress line (40 files) is not ended before the summary:\n%q", s)
	}
}

// TestListTable: --list prints the catalog table (the one doubleagent
// catalog prints), --list --json the JSON document, --json alone is a
// usage error.
func TestListTable(t *testing.T) {
	bin := buildCollector(t)
	out, err := exec.Command(bin, "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := catalog.WriteTable(&want, catalog.All()); err != nil {
		t.Fatal(err)
	}
	if string(out) != want.String() {
		t.Errorf("--list is not the catalog table:\n%.400s", out)
	}
	if !strings.Contains(string(out), "\nclaude-code            parsed     real-install    Claude Code\n    projects           transcript linux,darwin,windows {.claude,.claude-*}/projects/**/*.jsonl") {
		t.Errorf("--list has no claude-code rows:\n%.600s", out)
	}
	js, err := exec.Command(bin, "--list", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	wantJS, _ := catalog.JSON(catalog.All())
	if string(js) != string(wantJS)+"\n" {
		t.Errorf("--list --json is not the catalog JSON")
	}
	cmd := exec.Command(bin, "--json")
	var se bytes.Buffer
	cmd.Stderr = &se
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(se.String(), "--json goes with --list") {
		t.Errorf("--json alone: %v %q", err, se.String())
	}
}

// TestFormatProgress: the progress line's exact text.
func TestFormatProgress(t *testing.T) {
	for _, tc := range []struct {
		p       collect.Progress
		elapsed time.Duration
		want    string
	}{
		{collect.Progress{Files: 0, Bytes: 0}, 0, "0 files, 0 B, -"},
		{collect.Progress{Files: 3, Bytes: 1536, Agent: "claude-code", User: "alice"}, 2 * time.Second, "3 files, 1.50 KiB, 768 B/s  claude-code (alice)"},
		{collect.Progress{Files: 2400, Bytes: 1760911485, Agent: "codex-cli", User: "bob\x1b[2J"}, 30 * time.Second, "2400 files, 1.64 GiB, 56.0 MiB/s  codex-cli (bob\\x1b[2J)"},
		{collect.Progress{Files: 1, Bytes: 123 << 30}, time.Second, "1 file, 123 GiB, 123 GiB/s"},
	} {
		if got := formatProgress(tc.p, tc.elapsed); got != tc.want {
			t.Errorf("formatProgress(%+v, %v) = %q, want %q", tc.p, tc.elapsed, got, tc.want)
		}
	}
}

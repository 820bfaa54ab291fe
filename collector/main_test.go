//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// buildCollector builds the command once per test binary run.
func buildCollector(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the collector binary")
	}
	bin := filepath.Join(t.TempDir(), "doubleagent-collector")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStdoutPipe runs the binary with -o - into a pipe: the bundle is the
// whole of stdout and verifies; the log (JSON, stderr not being a
// terminal) and the closing line are on stderr; no progress is drawn.
func TestStdoutPipe(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), `{"display":"x"}`+"\n")
	writeFile(t, filepath.Join(root, "etc/hostname"), "piped\n")
	cmd := exec.Command(bin, "--root", root, "-o", "-", "--case", "C-9")
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("collector: %v\n%s", err, stderr.String())
	}
	hdr, res, err := bundle.Verify(bytes.NewReader(stdout.Bytes()), nil)
	if err != nil {
		t.Fatalf("stdout is not a bundle: %v", err)
	}
	if len(res.Problems) != 0 || !res.Complete || res.Members != 1 || hdr.Host.Hostname != "piped" || hdr.Host.Case != "C-9" {
		t.Errorf("bundle from stdout: problems %v, complete %v, members %d, header %+v", res.Problems, res.Complete, res.Members, hdr.Host)
	}
	if got := strings.Join(hdr.Host.CommandLine[1:], " "); got != "--root "+root+" -o - --case C-9" {
		t.Errorf("command line recorded as %q", got)
	}
	if !strings.Contains(stderr.String(), `"message":"collection started"`) || !strings.Contains(stderr.String(), "written to stdout") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if strings.Contains(stderr.String(), "\r") {
		t.Error("progress drawn although stderr is not a terminal")
	}
	if entries, _ := os.ReadDir(cmd.Dir); len(entries) != 0 {
		t.Errorf("files written beside stdout: %v", entries)
	}
}

// TestOutputRefusedAndExitCodes: an output inside the image is refused
// with exit code 2 and nothing is written; a normal run writes the bundle
// and its .sha256.
func TestOutputRefusedAndExitCodes(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), "{}\n")
	out := filepath.Join(root, "home/alice/out.tar.zst")
	cmd := exec.Command(bin, "--root", root, "-o", out)
	msg, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(msg), "refusing") {
		t.Errorf("output inside the image: %v %s", err, msg)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("the refused output was created")
	}

	good := filepath.Join(t.TempDir(), "b.tar.zst")
	if msg, err := exec.Command(bin, "--root", root, "-o", good).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, msg)
	}
	sc, err := bundle.CheckSidecar(good)
	if err != nil || !sc.Present || !sc.OK {
		t.Errorf("sidecar: %+v %v", sc, err)
	}
	// The same output twice is refused rather than overwritten.
	cmd = exec.Command(bin, "--root", root, "-o", good)
	if _, err := cmd.CombinedOutput(); !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("existing output: %v", err)
	}
}

//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIdentityFileByTheEvidenceRule: an --identity that is a FIFO, a link
// or a folder is refused at once (a FIFO is never opened, so the run
// cannot hang), with the reason.
func TestIdentityFileByTheEvidenceRule(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "key.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	abs, _ := filepath.Abs(ageIdentity)
	link := filepath.Join(dir, "key.link")
	os.Symlink(abs, link)
	for _, p := range []string{fifo, link, dir} {
		for _, cmdName := range []string{"verify", "timeline"} {
			args := []string{cmdName, "--identity", p, ageSample}
			if cmdName == "timeline" {
				args = append(args, "-o", filepath.Join(dir, "out"))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
			cancel()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 ||
				!strings.Contains(string(out), "--identity: identity file "+p+": not a regular file (a link, FIFO, socket, device or folder): not opened") {
				t.Errorf("%s %s: %v %s", cmdName, p, err, out)
			}
		}
	}
}

// TestRulesByTheEvidenceRule: --rules naming a FIFO stops the run at once
// with the reason (it used to hang); a folder's rules are counted.
func TestRulesByTheEvidenceRule(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.yml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "timeline", "--rules", fifo, "-o", filepath.Join(dir, "o"), ageSample).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "--rules: "+fifo+": a FIFO, not a regular file or a folder: refused, never opened") {
		t.Fatalf("%v %s", err, out)
	}
	rd := filepath.Join(dir, "rules")
	os.Mkdir(rd, 0o755)
	os.WriteFile(filepath.Join(rd, "r.yml"), []byte("title: t\nid: 00000000-0000-4000-8000-000000000009\nlevel: low\nlogsource:\n  product: doubleagent\ndetection:\n  s:\n    text: list the files\n  condition: s\n"), 0o644)
	out, err = exec.Command(bin, "timeline", "--rules", rd, "--identity", ageIdentity, "-o", filepath.Join(dir, "o2"), ageSample).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "rules: 1 loaded from "+rd+"\n") || !strings.Contains(string(out), "from 22 rules") {
		t.Fatalf("%v %s", err, out)
	}
}

// TestInventoryInputByTheEvidenceRule: an inventory FILE that is a FIFO is
// refused at once, with the reason.
func TestInventoryInputByTheEvidenceRule(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "inv.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "inventory", fifo).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), fifo+": not a regular file (a link, FIFO, socket, device or folder): not opened") {
		t.Fatalf("%v %s", err, out)
	}
}

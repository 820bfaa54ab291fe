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

// TestNoHomeNamesLinkedHome: an image whose only home is a link that
// resolves nowhere inside the image (its target exists only on the
// examiner's machine) is not walked; the collector's last line, its error
// log line and the bundle's log name the link, its target and the rule
// that decided, beside the bundle's symlink row, never only "no home was
// found".
func TestNoHomeNamesLinkedHome(t *testing.T) {
	bin := buildCollector(t)
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "alice/.claude/history.jsonl"), `{"display":"x"}`+"\n")
	if err := os.MkdirAll(filepath.Join(root, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(outside, "alice")
	if err := os.Symlink(target, filepath.Join(root, "home/alice")); err != nil {
		t.Fatal(err)
	}
	top := strings.SplitN(strings.TrimPrefix(target, "/"), "/", 2)[0]
	out := filepath.Join(t.TempDir(), "b.tar.zst")
	cmd := exec.Command(bin, "--root", root, "-o", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want 1\n%s", err, stderr.String())
	}
	why := `home not walked: /home/alice is a link to "` + target + `", resolved inside the image, as the link policy resolves every link under --root (an absolute target taken relative to the root, ` + "`..`" + ` stopping at it; never on the examiner's machine): /` + top + ` does not exist there`
	se := stderr.String()
	wantLast := "doubleagent-collector: no home was walked: the host names 1 home(s) or homes folder(s) that were not (each a manifest row); " + why + "; so nothing under a home was collected (the bundle records the walk); check --root and --users\n"
	if !strings.HasSuffix(se, wantLast) {
		t.Fatalf("stderr does not end with %q:\n%s", wantLast, se)
	}
	if !strings.Contains(se, "statuses symlink=1") || strings.Contains(se, "no home was found") {
		t.Errorf("stderr:\n%s", se)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, res, err := bundle.Verify(f, nil)
	if err != nil || !res.Complete {
		t.Fatalf("bundle: %v %+v", err, res)
	}
	if !strings.Contains(string(res.Log), `"level":"error"`) || !strings.Contains(string(res.Log), "no home was walked: the host names 1 home(s) or homes folder(s) that were not (each a manifest row); "+strings.ReplaceAll(why, `"`, `\"`)+": nothing under a home was collected") {
		t.Errorf("bundle log:\n%s", res.Log)
	}
	var rows []bundle.Entry
	for _, e := range res.Manifest {
		if e.Path == "/home/alice" {
			rows = append(rows, e)
		}
	}
	if len(rows) != 1 || rows[0].Status != bundle.StatusSymlink || rows[0].LinkTarget != target || rows[0].Error != why {
		t.Fatalf("manifest rows of /home/alice: %+v", rows)
	}
}

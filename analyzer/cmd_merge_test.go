package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestMergeCommand: `doubleagent merge` of one shard writes the shard's
// files byte for byte and says what it merged; a folder that is not a
// finished run is refused (exit 2) naming it, and so is an output folder
// holding a run.
func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	b := filepath.Join(dir, "a.tar.zst")
	os.WriteFile(b, bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}}), 0o644)
	shard := filepath.Join(dir, "s")
	if out, code := runCLI(t, "timeline", b, "-o", shard); code != 0 {
		t.Fatalf("timeline: %d %s", code, out)
	}
	m := filepath.Join(dir, "m")
	out, code := runCLI(t, "merge", shard, "-o", m)
	if code != 0 || !strings.Contains(out, "merged: 1 shard(s), 1 input(s): 1 rows (0 undated), 1 sessions, 0 problems\n") {
		t.Fatalf("merge: %d %s", code, out)
	}
	for _, f := range []string{"timeline.jsonl", "sessions.jsonl", "inventory.json", "problems.jsonl", "findings.jsonl"} {
		want, _ := os.ReadFile(filepath.Join(shard, f))
		got, err := os.ReadFile(filepath.Join(m, f))
		if err != nil || string(got) != string(want) || len(want) == 0 && f != "problems.jsonl" && f != "findings.jsonl" {
			t.Errorf("%s: merged %d bytes (%v), the shard's %d", f, len(got), err, len(want))
		}
	}
	if out, code := runCLI(t, "merge", dir, "-o", filepath.Join(t.TempDir(), "m2")); code != 2 || !strings.Contains(out, dir+": no run.json: not the output folder of a finished `doubleagent timeline` run") {
		t.Errorf("a folder that is no run: %d %s", code, out)
	}
	if out, code := runCLI(t, "merge", shard, "-o", m); code != 2 || !strings.Contains(out, "timeline.jsonl exists: the folder already holds a run") {
		t.Errorf("an output folder holding a run: %d %s", code, out)
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
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

// thinkingBundle is a bundle of host whose Claude Code transcript holds a
// typed prompt and a reply with a thinking block (hidden by default).
func thinkingBundle(t *testing.T, host, id string) []byte {
	t.Helper()
	const sid = "11111111-2222-4333-8444-555555555555"
	data := `{"type":"user","sessionId":"` + sid + `","cwd":"/home/a/p","uuid":"u1","timestamp":"2026-06-01T10:00:00.000Z","message":{"role":"user","content":"hello"}}
{"type":"assistant","sessionId":"` + sid + `","cwd":"/home/a/p","uuid":"a1","parentUuid":"u1","timestamp":"2026-06-01T10:00:01.000Z","message":{"role":"assistant","model":"claude-x","content":[{"type":"thinking","thinking":"the user says hello"},{"type":"text","text":"hi"}]}}
`
	var b bytes.Buffer
	w, err := bundle.NewWriter(&b, bundle.Header{BundleID: id, CollectorVersion: "test", StartedUTC: "2026-06-02T00:00:00.000Z", Host: bundle.Host{Hostname: host}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddFile(bundle.Entry{Path: "/home/a/.claude/projects/-home-a-p/" + sid + ".jsonl", Agent: "claude-code", Target: "projects", Kind: "transcript", User: "a", Home: "/home/a", Type: "file", MTime: "2026-06-01T10:00:01Z"}, int64(len(data)), strings.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-06-02T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// summaryBlock is a command's summary lines, from "inputs:" through
// "problems:".
func summaryBlock(out string) string {
	i := strings.Index(out, "inputs: ")
	j := strings.Index(out, "problems: ")
	if i < 0 || j < i {
		return ""
	}
	return out[i : j+strings.Index(out[j:], "\n")+1]
}

// TestMergeSummaryLines: merge prints the summary lines one timeline run
// over every shard's inputs prints (inputs, agents, rows, repeats, the
// rows hidden by turn type, problems), byte for byte: the thinking rows
// each shard hid are counted in the merge's summary too.
func TestMergeSummaryLines(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.tar.zst"), filepath.Join(dir, "b.tar.zst")
	os.WriteFile(a, thinkingBundle(t, "host-a", "0190b1a4-0000-7000-8000-00000000000a"), 0o644)
	os.WriteFile(b, thinkingBundle(t, "host-b", "0190b1a4-0000-7000-8000-00000000000b"), 0o644)
	one, code := runCLI(t, "timeline", a, b, "-o", filepath.Join(dir, "one"))
	if code != 0 {
		t.Fatalf("timeline: %d %s", code, one)
	}
	for _, s := range []string{"a", "b"} {
		if out, code := runCLI(t, "timeline", filepath.Join(dir, s+".tar.zst"), "-o", filepath.Join(dir, "s"+s)); code != 0 {
			t.Fatalf("shard %s: %d %s", s, code, out)
		}
	}
	merged, code := runCLI(t, "merge", filepath.Join(dir, "sa"), filepath.Join(dir, "sb"), "-o", filepath.Join(dir, "m"))
	if code != 0 {
		t.Fatalf("merge: %d %s", code, merged)
	}
	want := "inputs: 2 read, 0 unusable\n" +
		"agents: claude-code 6 rows\n" +
		"rows written: 6 (0 undated), in 2 sessions\n" +
		"repeats merged: 0 (0 by record id, 0 without an id by full value, 0 secondary rows as their primary row)\n" +
		"rows hidden by turn type: 2: thinking 2 (--include-thinking shows them); counted per file in inventory.json (rows_hidden)\n" +
		"problems: 0 (problems.jsonl)\n"
	if got := summaryBlock(one); got != want {
		t.Errorf("timeline summary:\n%s\nwant\n%s", got, want)
	}
	if got := summaryBlock(merged); got != want {
		t.Errorf("merge summary:\n%s\nwant\n%s", got, want)
	}
	if !strings.HasPrefix(merged, "merged: 2 shard(s), 2 input(s): 6 rows (0 undated), 2 sessions, 0 problems\n") {
		t.Errorf("merge first line: %s", merged)
	}
}

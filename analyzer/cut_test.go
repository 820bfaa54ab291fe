package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestCutBundleExitsThree: a bundle cut inside its second member is named
// where it stops by verify (exit 1), timeline and report (exit 3, the
// summary line, a truncated problem row naming the member's path,
// run.json's cut_short_inputs), and the rows before the cut are written.
func TestCutBundleExitsThree(t *testing.T) {
	dir := t.TempDir()
	second := "/home/a/.claude/projects/p/22222222-2222-4333-8444-555555555555.jsonl"
	var big strings.Builder
	for i := 0; big.Len() < 200<<10; i++ {
		big.WriteString(strings.Replace(transcript, "u1", "u"+strings.Repeat("x", i%50)+string(rune('a'+i%26)), 1))
	}
	b := bundletest.Build(t, []bundletest.File{
		{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)},
		{Path: second, Agent: "claude-code", Target: "projects", User: "a", Data: []byte(big.String())},
	})
	// The longest cut that stops inside the second member.
	var cut []byte
	for n := len(b) - 1; n > 0 && cut == nil; n-- {
		_, res, err := bundle.Verify(bytes.NewReader(b[:n]), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Problems {
			if p.Kind == bundle.ProblemTruncated && p.Path == second && strings.Contains(p.Msg, "inside this member after ") {
				cut = b[:n]
			}
		}
	}
	p := filepath.Join(dir, "cut.tar.zst")
	if err := os.WriteFile(p, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runCLI(t, "verify", p); code != 1 || !strings.Contains(out, "truncated "+second+": bundle cut short or corrupt inside this member after ") {
		t.Fatalf("verify a cut bundle: exit %d, want 1: %s", code, out)
	}
	for _, cmd := range []string{"timeline", "report"} {
		o := filepath.Join(dir, cmd)
		out, code := runCLI(t, cmd, p, "-o", o)
		if code != 3 || !strings.HasPrefix(out, "inputs: 1 read, 0 unusable, 1 read only in part (cut short)\n  read only in part: "+p+": the bundle is cut short or corrupt") ||
			!strings.Contains(out, "rows written: 1 (0 undated), in 1 sessions\n") ||
			!strings.Contains(out, "doubleagent: 1 bundle(s) read only in part") {
			t.Fatalf("%s on a cut bundle: exit %d, want 3: %s", cmd, code, out)
		}
		pb, err := os.ReadFile(filepath.Join(o, analyze.ProblemsJSONL))
		if err != nil {
			t.Fatal(err)
		}
		var named int
		for _, l := range strings.Split(strings.TrimSpace(string(pb)), "\n") {
			var pr analyze.Problem
			if err := json.Unmarshal([]byte(l), &pr); err != nil {
				t.Fatal(err)
			}
			if pr.Kind == bundle.ProblemTruncated && pr.SourceFile == second && pr.Input == p {
				named++
			}
		}
		var rec analyze.RunRecord
		rb, err := os.ReadFile(filepath.Join(o, analyze.RunJSON))
		if err == nil {
			err = json.Unmarshal(rb, &rec)
		}
		if err != nil || named != 1 || rec.Summary.CutShort != 1 || rec.Summary.Unusable != 0 {
			t.Fatalf("%s: %d truncated rows naming %s, run.json summary %+v (%v)", cmd, named, second, rec.Summary, err)
		}
		if cmd == "report" {
			h, err := os.ReadFile(filepath.Join(o, "report.html"))
			if err != nil || !strings.Contains(string(h), second) {
				t.Fatalf("report.html does not name the cut member %s (%v)", second, err)
			}
		}
	}
}

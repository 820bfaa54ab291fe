package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
)

// TestCutBundleExitsThree: a bundle cut inside its second member is named
// where it stops by verify (exit 1), timeline and report (exit 3, the
// summary line, a truncated problem row naming the member's path,
// run.json's cut_short_inputs, the report's evidence table), and the rows
// before the cut are written; so is a cut inside manifest.jsonl and inside
// log.jsonl, named by the member.
func TestCutBundleExitsThree(t *testing.T) {
	second := "/home/a/.claude/projects/p/22222222-2222-4333-8444-555555555555.jsonl"
	var big strings.Builder
	for i := 0; big.Len() < 200<<10; i++ {
		big.WriteString(strings.Replace(transcript, "u1", "u"+strings.Repeat("x", i%50)+string(rune('a'+i%26)), 1))
	}
	// A bundle as the collector writes it, with a log.
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "0190b1a4-0000-7000-8000-000000000009", CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: "testhost"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ path, data string }{{"/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", transcript}, {second, big.String()}} {
		e := bundle.Entry{Path: f.path, Agent: "claude-code", Target: "projects", Kind: "transcript", User: "a", Home: "/home/a", Type: "file", MTime: "2026-12-01T00:00:00Z"}
		if _, err := w.AddFile(e, int64(len(f.data)), strings.NewReader(f.data)); err != nil {
			t.Fatal(err)
		}
	}
	log := strings.Repeat(`{"level":"info","message":"collected"}`+"\n", 40)
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-12-01T00:01:00.000Z"}, []byte(log)); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// For each member, the longest cut that stops inside it: the second
	// artifact, the manifest, the log.
	for _, c := range []struct{ member, path, file string }{
		{"files" + second, second, second},
		{bundle.ManifestName, "", bundle.ManifestName},
		{bundle.LogName, "", bundle.LogName},
	} {
		var cut []byte
		for n := len(b) - 1; n > 0 && cut == nil; n-- {
			_, res, err := bundle.Verify(bytes.NewReader(b[:n]), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range res.Problems {
				if p.Kind == bundle.ProblemTruncated && p.Member == c.member && p.Path == c.path && strings.Contains(p.Msg, "inside this member after ") {
					cut = b[:n]
				}
			}
		}
		if cut == nil {
			t.Fatalf("no cut stops inside %s", c.member)
		}
		checkCut(t, filepath.Join(t.TempDir(), "cut.tar.zst"), cut, c.file, c.path)
	}
}

// checkCut writes the cut bundle to p and checks verify, timeline and
// report name the member (named by file: its path, or the member name)
// where it stops, and detect exits 3 naming the bundle.
func checkCut(t *testing.T, p string, cut []byte, file, path string) {
	t.Helper()
	dir := filepath.Dir(p)
	if err := os.WriteFile(p, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runCLI(t, "verify", p); code != 1 || !strings.Contains(out, "truncated "+file+": bundle cut short or corrupt inside this member after ") {
		t.Fatalf("verify a bundle cut in %s: exit %d, want 1: %s", file, code, out)
	}
	if out, code := runCLI(t, "detect", p); code != 3 || !strings.Contains(out, "  claude-code  ") || !strings.Contains(out, "truncated "+file+": bundle cut short or corrupt inside this member after ") ||
		!strings.Contains(out, "doubleagent: 1 bundle(s) read only in part (cut short or corrupt; listed above): the table holds what came before each cut: "+p) {
		t.Fatalf("detect a bundle cut in %s: exit %d, want 3: %s", file, code, out)
	}
	for _, cmd := range []string{"timeline", "report"} {
		o := filepath.Join(dir, cmd)
		out, code := runCLI(t, cmd, p, "-o", o)
		if code != 3 || !strings.HasPrefix(out, "inputs: 1 read, 0 unusable, 1 read only in part (cut short)\n  read only in part: "+p+": the bundle is cut short or corrupt") ||
			!strings.Contains(out, "\nrows written: ") || strings.Contains(out, "\nrows written: 0 ") ||
			!strings.Contains(out, "doubleagent: 1 bundle(s) read only in part") {
			t.Fatalf("%s on a bundle cut in %s: exit %d, want 3: %s", cmd, file, code, out)
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
			if pr.Kind == bundle.ProblemTruncated && pr.SourceFile == path && pr.Input == p && strings.HasPrefix(pr.Message, "truncated "+file+": bundle cut short or corrupt inside this member after ") {
				named++
			}
		}
		var rec analyze.RunRecord
		rb, err := os.ReadFile(filepath.Join(o, analyze.RunJSON))
		if err == nil {
			err = json.Unmarshal(rb, &rec)
		}
		if err != nil || named != 1 || rec.Summary.CutShort != 1 || rec.Summary.Unusable != 0 {
			t.Fatalf("%s: %d truncated rows naming %s, run.json summary %+v (%v)", cmd, named, file, rec.Summary, err)
		}
		if cmd == "report" {
			h, err := os.ReadFile(filepath.Join(o, "report.html"))
			if err != nil || !strings.Contains(string(h), "<th>read only in part</th><td>truncated "+file+": bundle cut short") {
				t.Fatalf("report.html does not name %s where the bundle stops (%v)", file, err)
			}
		}
	}
}

// TestReportOfBundleCutBeforeAnyRecord: a bundle cut inside its first
// artifact gives no row; the report's top note says the records past the
// cut were not read, not that the input holds no agent record (exit 3).
func TestReportOfBundleCutBeforeAnyRecord(t *testing.T) {
	first := "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl"
	var big strings.Builder
	for i := 0; big.Len() < 200<<10; i++ {
		big.WriteString(strings.Replace(transcript, "u1", "u"+strings.Repeat("x", i%50)+string(rune('a'+i%26)), 1))
	}
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "0190b1a4-0000-7000-8000-00000000000a", CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: "testhost"}})
	if err != nil {
		t.Fatal(err)
	}
	e := bundle.Entry{Path: first, Agent: "claude-code", Target: "projects", Kind: "transcript", User: "a", Home: "/home/a", Type: "file", MTime: "2026-12-01T00:00:00Z"}
	if _, err := w.AddFile(e, int64(big.Len()), strings.NewReader(big.String())); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-12-01T00:01:00.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// The shortest cut that stops inside the first artifact: no record of
	// it is complete.
	var cut []byte
	for n := 1; n < len(b) && cut == nil; n++ {
		_, res, err := bundle.Verify(bytes.NewReader(b[:n]), nil)
		if err != nil {
			continue
		}
		for _, p := range res.Problems {
			if p.Kind == bundle.ProblemTruncated && p.Path == first {
				cut = b[:n]
			}
		}
	}
	if cut == nil {
		t.Fatal("no cut stops inside the first artifact")
	}
	p := filepath.Join(t.TempDir(), "cut.tar.zst")
	if err := os.WriteFile(p, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(t.TempDir(), "out")
	out, code := runCLI(t, "report", p, "-o", o)
	if code != 3 || !strings.Contains(out, "\nrows written: 0 ") {
		t.Fatalf("report on a bundle cut in its first artifact: exit %d, want 3 and no row: %s", code, out)
	}
	const note = "Nothing found before the cut: the 1 input(s) read gave no agent record, so this report holds no rows, but 1 of them were read only in part (cut short or corrupt: named under Evidence and integrity, the truncated problem under Problems), so what lay past the cut was not read and is not here."
	md, err := os.ReadFile(filepath.Join(o, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "**" + note + "**\n\nContents:"; !strings.Contains(string(md), want) {
		t.Errorf("report.md lacks %q:\n%.2000s", want, md)
	}
	html, err := os.ReadFile(filepath.Join(o, "report.html"))
	if err != nil || !strings.Contains(string(html), "<p class=\"bad\"><b>"+note+"</b></p>") {
		t.Errorf("report.html lacks the note (%v)", err)
	}
}

// damagedBundle is a bundle of an aider chat history, a small claude-code
// transcript and a big one (its text random, so the compressed stream is
// mostly it), then a third transcript: damage in the middle of the
// compressed stream lands inside the big one, after the first two were
// read whole.
func damagedBundle(t *testing.T) []byte {
	t.Helper()
	chat, err := os.ReadFile(filepath.Join("parsers", "aider", "testdata", "typical.md"))
	if err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; big.Len() < 1<<20; i++ {
		fmt.Fprintf(&big, `{"type":"user","sessionId":"22222222-2222-4333-8444-555555555555","cwd":"/home/a/p","uuid":"b%d","timestamp":"2026-06-01T11:00:00.000Z","message":{"role":"user","content":"%016x%016x%016x%016x%016x%016x"}}`+"\n", i, rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64())
	}
	third := strings.NewReplacer("11111111-2222", "33333333-2222", `"u1"`, `"u3"`).Replace(transcript)
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "0190b1a4-0000-7000-8000-00000000000b", CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: "testhost"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ path, agent, data string }{
		{"/home/a/.aider.chat.history.md", "aider", string(chat)},
		{"/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", "claude-code", transcript},
		{damagedMember, "claude-code", big.String()},
		{"/home/a/.claude/projects/p/33333333-2222-4333-8444-555555555555.jsonl", "claude-code", third},
	} {
		target, kind := "projects", "transcript"
		if f.agent == "aider" {
			target = "chat-history"
		}
		e := bundle.Entry{Path: f.path, Agent: f.agent, Target: target, Kind: kind, User: "a", Home: "/home/a", Type: "file", MTime: "2026-12-01T00:00:00Z"}
		if _, err := w.AddFile(e, int64(len(f.data)), strings.NewReader(f.data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-12-01T00:01:00.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const damagedMember = "/home/a/.claude/projects/p/22222222-2222-4333-8444-555555555555.jsonl"

// checkDamaged runs timeline on the damaged bundle p (args before it) and
// checks it is read as cut inside damagedMember: exit 3, the rows of the
// members read whole before it (aider's 27, claude-code's 1) and none
// after, one truncated problem naming it, cut_short_inputs 1.
func checkDamaged(t *testing.T, p string, args ...string) {
	t.Helper()
	o := filepath.Join(t.TempDir(), "out")
	out, code := runCLI(t, append(append([]string{"timeline"}, args...), p, "-o", o)...)
	if len(args) > 0 {
		// --identity: the line that says what it loaded comes first.
		out = strings.TrimPrefix(out, "identity: 1 identities loaded from 1 files\n")
	}
	if code != 3 || !strings.HasPrefix(out, "inputs: 1 read, 0 unusable, 1 read only in part (cut short)\n  read only in part: "+p+": the bundle is cut short or corrupt") ||
		!strings.Contains(out, "\nagents: aider 27 rows, claude-code 1 rows\nrows written: 28 ") || strings.Contains(out, "no usable input") {
		t.Fatalf("timeline on a bundle damaged inside a member: exit %d, want 3: %s", code, out)
	}
	perAgent := map[string]int{}
	for _, r := range readJSONL(t, filepath.Join(o, analyze.TimelineJSONL)) {
		perAgent[r["agent"].(string)+" "+r["source_file"].(string)]++
	}
	if want := map[string]int{"aider /home/a/.aider.chat.history.md": 27, "claude-code /home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl": 1}; !maps.Equal(perAgent, want) {
		t.Fatalf("rows per agent and file %v, want %v", perAgent, want)
	}
	var kinds, msgs []string
	var named int
	for _, pr := range readJSONL(t, filepath.Join(o, analyze.ProblemsJSONL)) {
		kinds = append(kinds, pr["kind"].(string))
		msgs = append(msgs, pr["message"].(string))
		if pr["kind"] == bundle.ProblemTruncated && pr["source_file"] == damagedMember && pr["input"] == p &&
			strings.HasPrefix(pr["message"].(string), "truncated "+damagedMember+": bundle cut short or corrupt inside this member after ") &&
			strings.Contains(pr["message"].(string), " of its 1048584 bytes (and 2 whole artifacts): its content is incomplete, never verified: ") {
			named++
		}
	}
	sort.Strings(kinds)
	if named != 1 || !slices.Equal(kinds, []string{bundle.ProblemNoManifest, bundle.ProblemTruncated}) {
		t.Fatalf("problems %v, %d truncated naming %s: %q", kinds, named, damagedMember, msgs)
	}
	var rec analyze.RunRecord
	rb, err := os.ReadFile(filepath.Join(o, analyze.RunJSON))
	if err == nil {
		err = json.Unmarshal(rb, &rec)
	}
	if err != nil || rec.Summary.CutShort != 1 || rec.Summary.Unusable != 0 {
		t.Fatalf("run.json summary %+v (%v)", rec.Summary, err)
	}
}

// TestFlippedBytesBundle: 50 bytes flipped in the middle of the
// compressed stream (a corrupt zstd frame inside a member) are a cut from
// there: exit 3, not "no usable input" with rows written anyway and the
// members read whole before the damage (aider's) lost.
func TestFlippedBytesBundle(t *testing.T) {
	b := damagedBundle(t)
	whole := filepath.Join(t.TempDir(), "whole.tar.zst")
	if err := os.WriteFile(whole, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runCLI(t, "timeline", whole, "-o", filepath.Join(t.TempDir(), "o")); code != 0 || !strings.Contains(out, "\nagents: aider 27 rows, claude-code 3833 rows\n") {
		t.Fatalf("the undamaged bundle: exit %d: %s", code, out)
	}
	// From the middle on, the first 50 bytes whose flip the zstd decoder
	// finds inside the big member (a flip in literal bytes only is found
	// by the frame's checksum at its end: a checksum_mismatch, another
	// case).
	var d []byte
	for at := len(b) / 2; at+50 < len(b) && d == nil; at += 997 {
		f := bytes.Clone(b)
		for o := at; o < at+50; o++ {
			f[o] ^= 0xff
		}
		_, res, err := bundle.Verify(bytes.NewReader(f), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Problems {
			if p.Kind == bundle.ProblemTruncated && p.Path == damagedMember && strings.Contains(p.Msg, "inside this member after ") {
				d = f
			}
		}
	}
	if d == nil {
		t.Fatal("no flip is found inside the big member")
	}
	p := filepath.Join(t.TempDir(), "flip.tar.zst")
	if err := os.WriteFile(p, d, 0o644); err != nil {
		t.Fatal(err)
	}
	checkDamaged(t, p)
	if out, code := runCLI(t, "verify", p); code != 1 || !strings.Contains(out, "truncated "+damagedMember+": bundle cut short or corrupt inside this member after ") {
		t.Fatalf("verify: exit %d, want 1: %s", code, out)
	}
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestCutPositionExitCodes pins the exit codes of a bundle cut at every
// class of position, plain (.tar.zst) and encrypted (.age, one chunk and
// many): a cut inside the first bytes that say what the file is (the
// zstd magic, age's first line) is not a bundle (2 for verify, timeline
// and detect); a cut anywhere after them, inside bundle.json or age's
// header and first chunk too (nothing can be read then), is a damaged
// bundle: verify fails it (1), timeline and detect count it read only in
// part (3), with a truncated problem naming where it stops. Before, an
// encrypted bundle cut inside its only chunk (every small one) and a
// plain one cut inside bundle.json were unusable inputs (2).
func TestCutPositionExitCodes(t *testing.T) {
	plain := damagedBundle(t)
	rs, _, err := bundle.ParseRecipients([]string{"age1p6x9pjy8tzakmja0mazx35vgh7yzxpzw007pne6lcxwkfhhxwarqcp3af6"})
	if err != nil {
		t.Fatal(err)
	}
	var enc bytes.Buffer
	w, err := bundle.Encrypt(&enc, rs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(plain); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	multi := enc.Bytes()
	small, err := os.ReadFile(ageSample)
	if err != nil {
		t.Fatal(err)
	}
	// age: the header ends with its "--- MAC" line; a 16-byte nonce, then
	// chunks of 64 KiB of plaintext and a 16-byte tag each.
	ageBody := func(b []byte) int {
		i := bytes.Index(b, []byte("\n--- "))
		return i + 1 + bytes.IndexByte(b[i+1:], '\n') + 1
	}
	const chunk = 64<<10 + 16
	mb := ageBody(multi) + 16
	const (
		aider = "/home/a/.aider.chat.history.md"
		third = "/home/a/.claude/projects/p/33333333-2222-4333-8444-555555555555.jsonl"
	)
	// Plain positions, found by what the reader says of each cut.
	// (up from the start for the first member, down from the end for the
	// last ones: each is a few KiB from its end of the bundle.)
	plainCut := func(member, where string) int {
		n, step, stop := len(plain)-1, -1, 4
		if member == aider {
			n, step, stop = 5, 1, len(plain)
		}
		for ; n != stop; n += step {
			_, res, err := bundle.Verify(bytes.NewReader(plain[:n]), nil)
			if err != nil {
				continue
			}
			for _, p := range res.Problems {
				if p.Kind == bundle.ProblemTruncated && (p.Path == member || p.Member == member) && strings.Contains(p.Msg, where) {
					return n
				}
			}
		}
		t.Fatalf("no cut of the plain bundle %s %s", where, member)
		return 0
	}
	for _, c := range []struct {
		name     string
		b        []byte
		n        int
		age      bool
		verify   int
		timeline int
		truncMsg string // the truncated problem's message starts so
	}{
		{"plain: inside the zstd magic", plain, 3, false, 2, 2, ""},
		{"plain: inside bundle.json", plain, 40, false, 1, 3, "truncated bundle.json: cut short or corrupt in bundle.json, its first member"},
		{"plain: inside the first artifact", plain, plainCut(aider, "inside this member after "), false, 1, 3, "truncated " + aider + ": bundle cut short or corrupt inside this member after "},
		{"plain: between two members", plain, plainCut(aider, "after this member, whose bytes came whole"), false, 1, 3, "truncated " + aider + ": bundle cut short or corrupt after this member, whose bytes came whole"},
		{"plain: inside the last artifact", plain, plainCut(third, "inside this member after "), false, 1, 3, "truncated " + third + ": bundle cut short or corrupt inside this member after "},
		{"plain: inside manifest.jsonl", plain, plainCut(bundle.ManifestName, "inside this member after "), false, 1, 3, "truncated manifest.jsonl: bundle cut short or corrupt inside this member after "},
		{"age, one chunk: inside age's first line", small, 10, true, 2, 2, ""},
		{"age, one chunk: inside the age header", small, 40, true, 1, 3, "truncated bundle.json: encrypted bundle cut short or corrupt in its age header"},
		{"age, one chunk: inside its only chunk", small, len(small) - 100, true, 1, 3, "truncated bundle.json: encrypted bundle cut short or corrupt in its first 64 KiB chunk, which holds bundle.json"},
		{"age, one chunk: its tag's last byte", small, len(small) - 1, true, 1, 3, "truncated bundle.json: encrypted bundle cut short or corrupt in its first 64 KiB chunk, which holds bundle.json"},
		{"age, many chunks: inside the age header", multi, 40, true, 1, 3, "truncated bundle.json: encrypted bundle cut short or corrupt in its age header"},
		{"age, many chunks: inside the first chunk", multi, mb + 1000, true, 1, 3, "truncated bundle.json: encrypted bundle cut short or corrupt in its first 64 KiB chunk, which holds bundle.json"},
		{"age, many chunks: between chunks", multi, mb + 3*chunk, true, 1, 3, "truncated " + damagedMember + ": bundle cut short or corrupt inside this member after "},
		{"age, many chunks: inside the last chunk", multi, len(multi) - 10, true, 1, 3, "truncated "},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := "cut.tar.zst"
			var args []string
			if c.age {
				name += ".age"
				args = []string{"--identity", ageIdentity}
			}
			p := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(p, c.b[:c.n], 0o644); err != nil {
				t.Fatal(err)
			}
			codes := map[string]int{}
			outs := map[string]string{}
			o := filepath.Join(t.TempDir(), "o")
			for _, cmd := range []string{"verify", "detect", "timeline"} {
				a := append(append([]string{cmd}, args...), p)
				if cmd == "timeline" {
					a = append(a, "-o", o)
				}
				outs[cmd], codes[cmd] = runCLI(t, a...)
			}
			if codes["verify"] != c.verify || codes["detect"] != c.timeline || codes["timeline"] != c.timeline {
				t.Fatalf("cut at %d of %d: exit codes verify %d detect %d timeline %d, want %d %d %d\n%s", c.n, len(c.b), codes["verify"], codes["detect"], codes["timeline"], c.verify, c.timeline, c.timeline, fmt.Sprint(outs))
			}
			if c.truncMsg == "" {
				return
			}
			var msgs []string
			for _, pr := range readJSONL(t, filepath.Join(o, "problems.jsonl")) {
				if pr["kind"] == bundle.ProblemTruncated {
					msgs = append(msgs, pr["message"].(string))
				}
			}
			if len(msgs) != 1 || !strings.HasPrefix(msgs[0], c.truncMsg) {
				t.Errorf("truncated problems %q, want one starting %q", msgs, c.truncMsg)
			}
			if !strings.Contains(outs["timeline"], "inputs: 1 read, 0 unusable, 1 read only in part (cut short)\n") || !strings.Contains(outs["detect"], "doubleagent: 1 bundle(s) read only in part") {
				t.Errorf("timeline or detect does not say the bundle is read only in part:\n%s", fmt.Sprint(outs))
			}
		})
	}
}

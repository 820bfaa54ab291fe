package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestUnprovenBundleIsSaid: a bundle whose .sha256 sidecar names another
// hash (or is not a sidecar at all), and one with a second bundle
// appended, are read, but the summary names each with what failed, the
// exit status is 3, run.json counts them (unproven_inputs), a
// sidecar that does not vouch for the file leaves every row
// verified:false and the inventory's verified "none", and the report's
// integrity table says so. Before, each was exit 0, "1 .sha256
// sidecar(s) checked", every row verified:true and "verified | all".
func TestUnprovenBundleIsSaid(t *testing.T) {
	good := bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}})
	sum := sha256.Sum256(good)
	hexSum := hex.EncodeToString(sum[:])
	zeros := strings.Repeat("0", 64)
	// 6656: the second bundle's tar stream after the first's end of
	// archive, as the reader counts it (TestVerifyHostileBundles).
	cases := []struct {
		name, sidecar string
		data          []byte
		line          string
		verified      string
		field         [2]string
	}{
		{"sidecar names another hash", zeros + "  b.tar.zst\n", good,
			"  sidecar does not vouch for it: %s: bundle sha256 " + hexSum + " does not match its sidecar " + zeros + ": the file is not provably the one acquired, so its rows are marked verified:false (problems.jsonl: sidecar_mismatch)",
			"false", [2]string{"sidecar", "bundle sha256 " + hexSum + " does not match its sidecar " + zeros + ": the file is not provably the one acquired, so its rows are marked verified:false"}},
		{"sidecar not a sidecar", "garbage not a hash\n", good,
			"  sidecar does not vouch for it: %s: sidecar is not in sha256sum format: the file is not provably the one acquired, so its rows are marked verified:false (problems.jsonl: sidecar_mismatch)",
			"false", [2]string{"sidecar", "sidecar is not in sha256sum format: the file is not provably the one acquired, so its rows are marked verified:false"}},
		{"second bundle appended", "", append(append([]byte(nil), good...), good...),
			"  read only in part: %s: trailing_data: 6656 bytes of data after the end of the archive (a second bundle appended): not read; split it off and read it on its own (problems.jsonl: trailing_data)",
			"true", [2]string{"read only in part", "trailing_data: 6656 bytes of data after the end of the archive (a second bundle appended): not read; split it off and read it on its own"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "b.tar.zst")
			os.WriteFile(p, c.data, 0o644)
			if c.sidecar != "" {
				os.WriteFile(p+".sha256", []byte(c.sidecar), 0o644)
			}
			out := filepath.Join(dir, "out")
			got, code := runCLI(t, "report", p, "-o", out)
			if code != 3 {
				t.Fatalf("exit %d, want 3:\n%s", code, got)
			}
			lines := strings.Split(got, "\n")
			// The bundle is given alone: its sidecar is checked beside it,
			// not counted among the inputs given.
			wantFirst := "inputs: 1 read, 0 unusable, 1 failing a whole-file check (sidecar, appended data)"
			if i := indexOf(lines, wantFirst); i < 0 || lines[i+1] != strings.ReplaceAll(c.line, "%s", p) {
				t.Fatalf("summary (line %d):\n%q\nwant %q", indexOf(lines, wantFirst), lines[:3], strings.ReplaceAll(c.line, "%s", p))
			}
			if !strings.Contains(got, "doubleagent: 1 bundle(s) failing a whole-file check (") {
				t.Fatalf("no closing line:\n%s", got)
			}
			var run struct {
				Summary struct {
					Unproven int `json:"unproven_inputs"`
					Rows     int `json:"rows"`
				} `json:"summary"`
				Inputs []struct {
					Verified string `json:"verified"`
				} `json:"inputs"`
			}
			b, _ := os.ReadFile(filepath.Join(out, "run.json"))
			if err := json.Unmarshal(b, &run); err != nil {
				t.Fatal(err)
			}
			wantInv := "all"
			if c.verified == "false" {
				wantInv = "none"
			}
			if run.Summary.Unproven != 1 || run.Summary.Rows != 1 || len(run.Inputs) != 1 || run.Inputs[0].Verified != wantInv {
				t.Fatalf("run.json: %+v", run)
			}
			tl, _ := os.ReadFile(filepath.Join(out, "timeline.jsonl"))
			if n := strings.Count(string(tl), `"verified":"`+c.verified+`"`); n != 1 {
				t.Fatalf("%d rows verified %s in:\n%s", n, c.verified, tl)
			}
			md, _ := os.ReadFile(filepath.Join(out, "report.md"))
			row := "| " + strings.ReplaceAll(c.field[0], " ", " ") + " | " + mdText(c.field[1]) + " |"
			if !strings.Contains(string(md), row) || !strings.Contains(string(md), "| verified | "+wantInv+" |") {
				t.Fatalf("report.md has no %q (verified %s):\n%s", row, wantInv, md)
			}
		})
	}
}

// mdText is s as the report's Markdown escapes it (the underscores of
// the problem kinds).
func mdText(s string) string { return strings.ReplaceAll(s, "_", `\_`) }

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s && i+1 < len(lines) {
			return i
		}
	}
	return -1
}

// hostBundle is a bundle of host with one claude transcript of about size
// bytes (at least one line).
func hostBundle(t *testing.T, host, id string, size int) []byte {
	t.Helper()
	var data strings.Builder
	for i := 0; i == 0 || data.Len() < size; i++ {
		data.WriteString(strings.Replace(transcript, `"u1"`, `"u`+strconv.Itoa(i)+`"`, 1))
	}
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: id, CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: host}})
	if err != nil {
		t.Fatal(err)
	}
	e := bundle.Entry{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", Kind: "transcript", User: "a", Home: "/home/a", Type: "file", MTime: "2026-12-01T00:00:00Z"}
	if _, err := w.AddFile(e, int64(data.Len()), strings.NewReader(data.String())); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-12-01T00:01:00.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMergeSaysShardsDamagedInputs: shards whose runs exited 3 (an
// unusable input, a bundle cut short, a bundle whose sidecar does not
// vouch for it) merge into a case that says so as one run over every
// input does: each unusable input named with its reason, the cut and
// unproven bundles counted, run.json's unusable_inputs, cut_short_inputs
// and unproven_inputs summed, exit 3. Before, the merge exited 0, named
// none of them and wrote cut_short_inputs 0.
func TestMergeSaysShardsDamagedInputs(t *testing.T) {
	dir := t.TempDir()
	fa := filepath.Join(dir, "fa")
	os.Mkdir(fa, 0o755)
	os.WriteFile(filepath.Join(fa, "ha.tar.zst"), hostBundle(t, "ha", "0190b1a4-0000-7000-8000-0000000000a1", 1), 0o644)
	os.WriteFile(filepath.Join(fa, "zero.tar.zst"), nil, 0o644)
	hb := hostBundle(t, "hb", "0190b1a4-0000-7000-8000-0000000000b1", 300<<10)
	cut := filepath.Join(dir, "hb.tar.zst")
	os.WriteFile(cut, hb[:len(hb)*2/3], 0o644)
	hc := filepath.Join(dir, "hc.tar.zst")
	os.WriteFile(hc, hostBundle(t, "hc", "0190b1a4-0000-7000-8000-0000000000c1", 1), 0o644)
	os.WriteFile(hc+".sha256", []byte(strings.Repeat("0", 64)+"  hc.tar.zst\n"), 0o644)
	var shards []string
	for i, in := range []string{fa, cut, hc} {
		s := filepath.Join(dir, "shard-"+strconv.Itoa(i))
		if out, code := runCLI(t, "timeline", in, "-o", s); code != 3 {
			t.Fatalf("timeline %s: exit %d, want 3:\n%s", in, code, out)
		}
		shards = append(shards, s)
	}
	m := filepath.Join(dir, "m")
	out, code := runCLI(t, append(append([]string{"merge"}, shards...), "-o", m)...)
	lines := strings.Split(out, "\n")
	if code != 3 || len(lines) < 5 || !strings.HasPrefix(lines[0], "merged: 3 shard(s), ") ||
		lines[1] != "inputs: 3 read, 1 unusable, 1 read only in part (cut short), 1 failing a whole-file check (sidecar, appended data)" ||
		lines[2] != "  read only in part: 1 bundle(s), cut short or corrupt, read as far as each goes (each shard's summary named them; problems.jsonl: truncated names the member where each stops)" ||
		lines[3] != "  failing a whole-file check: 1 bundle(s) (each shard's summary named them; problems.jsonl: sidecar_mismatch, sidecar, trailing_data)" ||
		lines[4] != "  unusable: "+filepath.Join(fa, "zero.tar.zst")+": empty (0 bytes): no bundle can be read from it (a failed or unfinished copy?)" ||
		!strings.Contains(out, "doubleagent: the shards hold 1 unusable input(s), 1 bundle(s) read only in part and 1 failing a whole-file check (") {
		t.Fatalf("merge: exit %d:\n%s", code, out)
	}
	var run struct {
		Summary struct {
			Unusable int `json:"unusable_inputs"`
			CutShort int `json:"cut_short_inputs"`
			Unproven int `json:"unproven_inputs"`
		} `json:"summary"`
	}
	b, _ := os.ReadFile(filepath.Join(m, "run.json"))
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatal(err)
	}
	if s := run.Summary; s.Unusable != 1 || s.CutShort != 1 || s.Unproven != 1 {
		t.Fatalf("run.json summary %+v", s)
	}
	// One run over the same inputs counts the same.
	one := filepath.Join(dir, "one")
	if out, code := runCLI(t, "timeline", fa, cut, hc, "-o", one); code != 3 {
		t.Fatalf("one run: exit %d:\n%s", code, out)
	}
	var oneRun = run
	b, _ = os.ReadFile(filepath.Join(one, "run.json"))
	if err := json.Unmarshal(b, &oneRun); err != nil || oneRun.Summary != run.Summary {
		t.Fatalf("one run's summary %+v, the merge's %+v (%v)", oneRun.Summary, run.Summary, err)
	}
}

// TestDetectUnprovenBundleExits3: detect follows timeline's rule: a bundle
// whose .sha256 sidecar names another hash is listed, and the exit is 3
// (it was 0, the table shown as of the acquired bundle).
func TestDetectUnprovenBundleExits3(t *testing.T) {
	good := bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}})
	sum := sha256.Sum256(good)
	hexSum := hex.EncodeToString(sum[:])
	zeros := strings.Repeat("0", 64)
	dir := t.TempDir()
	p := filepath.Join(dir, "b.tar.zst")
	os.WriteFile(p, good, 0o644)
	got, code := runCLI(t, "detect", p)
	if code != 0 {
		t.Fatalf("no sidecar: exit %d, want 0:\n%s", code, got)
	}
	os.WriteFile(p+".sha256", []byte(hexSum+"  b.tar.zst\n"), 0o644)
	if got, code := runCLI(t, "detect", p); code != 0 {
		t.Fatalf("matching sidecar: exit %d, want 0:\n%s", code, got)
	}
	os.WriteFile(p+".sha256", []byte(zeros+"  b.tar.zst\n"), 0o644)
	got, code = runCLI(t, "detect", p)
	if code != 3 {
		t.Fatalf("exit %d, want 3:\n%s", code, got)
	}
	for _, want := range []string{
		"  sidecar does not vouch for it: " + p + ": bundle sha256 " + hexSum + " does not match its sidecar " + zeros + " (problem sidecar_mismatch)\n",
		"doubleagent: 1 bundle(s) failing a whole-file check (a .sha256 sidecar naming another hash, or data after the archive not read; listed above): the table is not provably of the acquired bundle\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("detect output lacks %q:\n%s", want, got)
		}
	}
}

// TestTokenInRelocationPathIsMasked: a token inside a relocation value
// (CLAUDE_CONFIG_DIR=/nonexist/ghp_... in a .bashrc) is written
// [redacted] on the terminal and in problems.jsonl (T13); it was printed.
func TestTokenInRelocationPathIsMasked(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(filepath.Join(root, "home/alice/.claude/projects/p"), 0o755)
	os.WriteFile(filepath.Join(root, "home/alice/.bashrc"), []byte("export CLAUDE_CONFIG_DIR=/nonexist/ghp_ABCDEFGHIJKLMNOPQRSTuvwx\n"), 0o644)
	os.WriteFile(filepath.Join(root, "home/alice/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl"), []byte(transcript), 0o644)
	out := filepath.Join(dir, "out")
	got, code := runCLI(t, "timeline", root, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, got)
	}
	want := "    relocated agent folder (CLAUDE_CONFIG_DIR=/nonexist/[redacted] in /home/alice/.bashrc:1) named but not there: its target does not exist inside the tree (an absolute target is taken relative to the tree's root)\n"
	if !strings.Contains(got, want) || strings.Contains(got, "ghp_") {
		t.Errorf("terminal lacks %q or holds the token:\n%s", want, got)
	}
	b, err := os.ReadFile(filepath.Join(out, "problems.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		SourceFile string `json:"source_file"`
		Message    string `json:"message"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(b), &p); err != nil {
		t.Fatalf("problems.jsonl: %v\n%s", err, b)
	}
	if p.SourceFile != "/nonexist/[redacted]" || p.Message != strings.TrimSpace(want) {
		t.Errorf("problem = %+v", p)
	}
}

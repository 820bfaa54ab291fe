package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// The frozen encrypted sample and its TEST-ONLY keys (bundle/testdata/age).
var (
	ageSample   = filepath.Join("..", "bundle", "testdata", "age", "fake-home.tar.zst.age")
	ageIdentity = filepath.Join("..", "bundle", "testdata", "age", "TEST-ONLY-identity.txt")
	ageOther    = filepath.Join("..", "bundle", "testdata", "age", "TEST-ONLY-other-identity.txt")
)

// copySample puts the sample and its sidecar in dir (verify names them as
// given, and a test may damage the copy).
func copySample(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fake-home.tar.zst.age")
	for _, suf := range []string{"", ".sha256"} {
		b, err := os.ReadFile(ageSample + suf)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+suf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func TestVerifyEncrypted(t *testing.T) {
	dir := t.TempDir()
	p := copySample(t, dir)
	out, code := runCLI(t, "verify", p)
	if code != 0 || out != p+": sidecar "+p+".sha256 matches\n"+
		p+": OK (ciphertext only): the sidecar matches the encrypted file; its members were not verified: age-encrypted and no --identity given\n" {
		t.Fatalf("without the key: %d %q", code, out)
	}
	out, code = runCLI(t, "verify", "--identity", ageIdentity, p)
	if code != 0 || !strings.Contains(out, p+": age-encrypted: the sidecar is the ciphertext's hash") ||
		!strings.Contains(out, p+": OK: bundle 01a23341-ecba-7265-8220-3a6ff3931936 from fixture-age, 9 of 9 collected files verified\n") ||
		!strings.Contains(out, "identity: 1 identities loaded from 1 files") {
		t.Fatalf("with the key: %d %s", code, out)
	}
	// A wrong key is said plainly and treated as no key: the sidecar over
	// the ciphertext is still checked (exit 0, ciphertext only); without
	// the sidecar nothing is verified (exit 2).
	other, err := filepath.Abs(ageOther) // --identity is a path flag: named absolute
	if err != nil {
		t.Fatal(err)
	}
	out, code = runCLI(t, "verify", "--identity", ageOther, p)
	if code != 0 || !strings.HasSuffix(out, p+": sidecar "+p+".sha256 matches\n"+
		p+": OK (ciphertext only): the sidecar matches the encrypted file; its members were not verified: age-encrypted and no identity in "+other+" opens this bundle (none is one of its recipients)\n") {
		t.Fatalf("wrong key: %d %s", code, out)
	}
	// Without the sidecar nothing can be checked without the key.
	os.Remove(p + ".sha256")
	out, code = runCLI(t, "verify", p)
	if code != 2 || !strings.Contains(out, p+": unusable: age-encrypted and no --identity given, and no .sha256 sidecar: nothing verified\n") {
		t.Fatalf("no sidecar: %d %s", code, out)
	}
	out, code = runCLI(t, "verify", "--identity", ageOther, p)
	if code != 2 || !strings.Contains(out, p+": unusable: age-encrypted and no identity in "+other+" opens this bundle (none is one of its recipients), and no .sha256 sidecar: nothing verified\n") ||
		!strings.HasSuffix(out, "doubleagent: 1 input(s) are not readable bundles or extracted collections; 0 of 1 failed verification\n") {
		t.Fatalf("wrong key, no sidecar: %d %s", code, out)
	}
	// A ciphertext byte changed: the outer hash fails without the key,
	// and the age layer says so with it (the sample is one 64 KiB chunk,
	// so nothing of it can be read: a damaged bundle, which fails as a
	// plain one cut inside bundle.json does, exit 1, with the reason).
	p = copySample(t, t.TempDir())
	b, _ := os.ReadFile(p)
	b[len(b)-100] ^= 1
	os.WriteFile(p, b, 0o644)
	out, code = runCLI(t, "verify", p)
	if code != 2 || !strings.Contains(out, "does not match its sidecar") || strings.Contains(out, "OK") {
		t.Fatalf("tampered, no key: %d %s", code, out)
	}
	out, code = runCLI(t, "verify", "--identity", ageIdentity, p)
	if code != 1 || !strings.Contains(out, p+": truncated bundle.json: encrypted bundle cut short or corrupt in its first 64 KiB chunk, which holds bundle.json (age delivers a chunk only once it authenticates: without it nothing can be read): bundle: encrypted stream corrupt, cut short or with data after its end: failed to decrypt and authenticate payload chunk") ||
		!strings.Contains(out, p+": FAILED: a bundle cut short or corrupt inside its header: no member can be read or verified\n") {
		t.Fatalf("tampered, key: %d %s", code, out)
	}
}

// TestTimelineEncrypted: timeline and report read the sample with
// --identity and write no plaintext outside the outputs (the private temp
// folder is empty after the run, and no output is a bundle); without the
// key the sample is an unusable input with its reason, and the other
// inputs are read.
func TestTimelineEncrypted(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o700)
	for _, cmdName := range []string{"timeline", "report"} {
		o := filepath.Join(dir, cmdName)
		cmd := exec.Command(bin, cmdName, "--identity", ageIdentity, "-o", o, ageSample)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "inputs: 1 read, 0 unusable\n") || !strings.Contains(string(out), "rows written: 10 (1 undated), in 4 sessions\n") {
			t.Fatalf("%s: %v %s", cmdName, err, out)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Fatalf("%s left %v in the temp folder", cmdName, left)
		}
		filepath.WalkDir(o, func(p string, d os.DirEntry, err error) error {
			if b, _ := os.ReadFile(p); !d.IsDir() && (bytes.HasPrefix(b, []byte{0x28, 0xB5, 0x2F, 0xFD}) || bytes.Contains(b, []byte("fake-token-not-a-secret"))) {
				t.Errorf("%s: %s holds plaintext of the bundle", cmdName, p)
			}
			return nil
		})
	}
	good := filepath.Join(dir, "good.tar.zst")
	os.WriteFile(good, bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}}), 0o644)
	o := filepath.Join(dir, "nokey")
	out, code := runCLI(t, "timeline", "-o", o, ageSample, good)
	if code != 3 || !strings.Contains(out, "inputs: 1 read, 1 unusable") || !strings.Contains(out, "rows written: 1 (0 undated), in 1 sessions\n") {
		t.Fatalf("no key: %d %s", code, out)
	}
	probs, _ := os.ReadFile(filepath.Join(o, "problems.jsonl"))
	if !strings.Contains(string(probs), `"kind":"unusable_input"`) || !strings.Contains(string(probs), "age-encrypted bundle and no identity given (--identity FILE): not read") {
		t.Fatalf("problems: %s", probs)
	}
	// Through a pipe: the stream is spooled as ciphertext, then read.
	cmd := exec.Command(bin, "timeline", "--identity", ageIdentity, "/dev/stdin", "-o", filepath.Join(dir, "stdin"))
	cmd.Stdin, _ = os.Open(ageSample)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	if b, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(b), "rows written: 10 ") {
		t.Fatalf("stdin: %v %s", err, b)
	}
}

// TestWrongKey: timeline, report and detect given an encrypted bundle and
// an identity that is none of its recipients say the key does not open
// it, as a wrong_key problem row of its own (not the unusable_input of a
// damaged file), counted among the unusable inputs: exit 2 when it is the
// only input, 3 beside a readable one (analyzer/docs/usage.md, Exit
// codes). No key material is printed or written.
func TestWrongKey(t *testing.T) {
	dir := t.TempDir()
	abs, err := filepath.Abs(ageSample)
	if err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(ageOther)
	if err != nil {
		t.Fatal(err)
	}
	var secret string
	for _, l := range strings.Split(string(key), "\n") {
		if strings.HasPrefix(l, "AGE-SECRET-KEY-1") {
			secret = l
		}
	}
	if secret == "" {
		t.Fatal("no AGE-SECRET-KEY-1 line in the other identity")
	}
	const msg = "age-encrypted, and none of the 1 identities given (--identity) is one of its recipients: the key does not open this bundle, not read"
	wantProblem := `{"host":"","bundle_id":"","input":"` + abs + `","source_file":"","source_line":0,"agent":"","parser":"","kind":"wrong_key","message":"` + msg + `"}` + "\n"
	noKey := func(what, s string) {
		if strings.Contains(s, secret) || strings.Contains(s, "AGE-SECRET-KEY") {
			t.Errorf("%s holds key material", what)
		}
	}
	for _, cmdName := range []string{"timeline", "report"} {
		o := filepath.Join(dir, cmdName)
		out, code := runCLI(t, cmdName, "--identity", ageOther, "-o", o, ageSample)
		if code != 2 || !strings.Contains(out, "inputs: 0 read, 1 unusable\n  unusable: "+abs+": "+msg+"\n") {
			t.Errorf("%s alone: %d %s", cmdName, code, out)
		}
		noKey(cmdName+" output", out)
		probs, _ := os.ReadFile(filepath.Join(o, "problems.jsonl"))
		if string(probs) != wantProblem {
			t.Errorf("%s problems.jsonl:\n%s\nwant\n%s", cmdName, probs, wantProblem)
		}
		filepath.WalkDir(o, func(p string, d os.DirEntry, err error) error {
			if b, _ := os.ReadFile(p); err == nil && !d.IsDir() {
				noKey(p, string(b))
			}
			return nil
		})
	}
	good := filepath.Join(dir, "good.tar.zst")
	os.WriteFile(good, bundletest.Build(t, []bundletest.File{{Path: "/home/a/.claude/projects/p/11111111-2222-4333-8444-555555555555.jsonl", Agent: "claude-code", Target: "projects", User: "a", Data: []byte(transcript)}}), 0o644)
	o := filepath.Join(dir, "both")
	out, code := runCLI(t, "timeline", "--identity", ageOther, "-o", o, ageSample, good)
	if code != 3 || !strings.Contains(out, "inputs: 1 read, 1 unusable\n  unusable: "+abs+": "+msg+"\n") || !strings.Contains(out, "rows written: 1 (0 undated), in 1 sessions\n") {
		t.Errorf("beside a readable bundle: %d %s", code, out)
	}
	probs, _ := os.ReadFile(filepath.Join(o, "problems.jsonl"))
	if string(probs) != wantProblem {
		t.Errorf("problems.jsonl beside a readable bundle:\n%s", probs)
	}
	out, code = runCLI(t, "detect", "--identity", ageOther, ageSample)
	if code != 2 || !strings.Contains(out, "problem: "+abs+": "+msg+"\n") {
		t.Errorf("detect alone: %d %s", code, out)
	}
	out, code = runCLI(t, "detect", "--identity", ageOther, ageSample, good)
	if code != 3 || !strings.Contains(out, "problem: "+abs+": "+msg+"\n") {
		t.Errorf("detect beside a readable bundle: %d %s", code, out)
	}
	noKey("detect output", out)
}

// TestSurfaceEncrypted: surface reads an encrypted bundle with --identity,
// its second read of the bundle (the manifest's MACB times) included:
// the planted hook's times come from the manifest.
func TestSurfaceEncrypted(t *testing.T) {
	dir := t.TempDir()
	var pb bytes.Buffer
	bw, err := bundle.NewWriter(&pb, bundle.Header{BundleID: "0190b1a4-0000-7000-8000-000000000002", CollectorVersion: "test", StartedUTC: "2026-01-01T00:00:00.000Z", Host: bundle.Host{Hostname: "testhost"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bw.AddFile(bundle.Entry{Path: "/home/alice/.claude/settings.json", Agent: "claude-code", Target: "settings", Kind: "settings", User: "alice", Home: "/home/alice", Type: "file",
		MTime: "2026-01-01T00:00:00Z", ATime: "2026-01-02T00:00:00Z", CTime: "2026-01-03T00:00:00Z"}, int64(len(plantedSettings)), strings.NewReader(plantedSettings)); err != nil {
		t.Fatal(err)
	}
	if err := bw.Close(bundle.Summary{Complete: true, EndedUTC: "2026-01-01T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	plain := pb.Bytes()
	rs, _, err := bundle.ParseRecipients([]string{"age1p6x9pjy8tzakmja0mazx35vgh7yzxpzw007pne6lcxwkfhhxwarqcp3af6"})
	if err != nil {
		t.Fatal(err)
	}
	var enc bytes.Buffer
	w, _ := bundle.Encrypt(&enc, rs)
	w.Write(plain)
	w.Close()
	p := filepath.Join(dir, "s.tar.zst.age")
	os.WriteFile(p, enc.Bytes(), 0o644)
	o := filepath.Join(dir, "o")
	out, code := runCLI(t, "surface", "--identity", ageIdentity, "-o", o, p)
	if code != 0 || !strings.Contains(out, "timeline: 1 rows, 0 problems from 1 inputs (0 unusable)") {
		t.Fatalf("%d %s", code, out)
	}
	rows := readJSONL(t, filepath.Join(o, "surface.jsonl"))
	if len(rows) != 1 || rows[0]["times_from"] != "manifest" || rows[0]["atime"] != "2026-01-02T00:00:00Z" || rows[0]["host"] != "testhost" {
		t.Fatalf("surface rows %v", rows)
	}
	if out, code := runCLI(t, "surface", "-o", filepath.Join(dir, "o2"), p); code != 2 || !strings.Contains(out, "age-encrypted bundle and no identity given") {
		t.Fatalf("without the key: %d %s", code, out)
	}
}

// TestCutEncryptedBundle: an age-encrypted bundle cut in the middle (its
// last chunk then fails to authenticate) is a cut inside the member the
// plaintext stops in, as an unencrypted one is: exit 3, the rows of the
// members read whole before it kept, one truncated problem naming it.
func TestCutEncryptedBundle(t *testing.T) {
	rs, _, err := bundle.ParseRecipients([]string{"age1p6x9pjy8tzakmja0mazx35vgh7yzxpzw007pne6lcxwkfhhxwarqcp3af6"})
	if err != nil {
		t.Fatal(err)
	}
	var enc bytes.Buffer
	w, err := bundle.Encrypt(&enc, rs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(damagedBundle(t)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := enc.Bytes()
	p := filepath.Join(t.TempDir(), "cut.tar.zst.age")
	if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	checkDamaged(t, p, "--identity", ageIdentity)
	if out, code := runCLI(t, "verify", "--identity", ageIdentity, p); code != 1 || !strings.Contains(out, "truncated "+damagedMember+": bundle cut short or corrupt inside this member after ") {
		t.Fatalf("verify: exit %d, want 1: %s", code, out)
	}
}

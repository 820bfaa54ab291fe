//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// The TEST-ONLY keys of bundle/testdata/age.
var (
	testRecipients = filepath.Join("..", "bundle", "testdata", "age", "recipients.txt")
	testIdentity   = filepath.Join("..", "bundle", "testdata", "age", "TEST-ONLY-identity.txt")
	otherRecipient = "age1y8uxxpexhju8gs2sh2xdd5qy8gwpcv3v9mkdya56whn4v2yjtq4snavvp4"
)

// TestEncryptTo: the default name ends .tar.zst.age, the file is an age
// file that holds no plaintext, its sidecar hashes the ciphertext, and it
// decrypts (with either recipient's key) to a complete bundle; to stdout
// it is encrypted too.
func TestEncryptTo(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), `{"display":"a secret prompt"}`+"\n")
	writeFile(t, filepath.Join(root, "etc/hostname"), "sealed\n")
	rcp, _ := filepath.Abs(testRecipients)
	out := t.TempDir()
	cmd := exec.Command(bin, "--root", root, "--encrypt-to", rcp, "--encrypt-to", otherRecipient)
	cmd.Dir = out
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v %s", err, b)
	}
	if !strings.Contains(string(b), "encrypt-to: recipients file "+rcp+": 1 recipients\n") ||
		!strings.Contains(string(b), "encrypt-to: recipient "+otherRecipient+"\n") ||
		!strings.Contains(string(b), "the bundle is encrypted to 2 recipients") {
		t.Errorf("stderr: %s", b)
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != 2 || !strings.HasPrefix(ents[0].Name(), "sealed_") || !strings.HasSuffix(ents[0].Name(), "_doubleagent.tar.zst.age") || ents[1].Name() != ents[0].Name()+".sha256" {
		t.Fatalf("files %v", ents)
	}
	p := filepath.Join(out, ents[0].Name())
	data, _ := os.ReadFile(p)
	side, _ := os.ReadFile(p + ".sha256")
	sum := sha256.Sum256(data)
	// The first line is the ciphertext's hash (what sha256sum -c checks);
	// the comment lines after it hash the plaintext header and manifest.
	lines := strings.Split(strings.TrimSuffix(string(side), "\n"), "\n")
	if len(lines) != 3 || lines[0] != hex.EncodeToString(sum[:])+"  "+ents[0].Name() ||
		!strings.HasPrefix(lines[1], "# bundle.json sha256 ") || !strings.HasPrefix(lines[2], "# manifest.jsonl sha256 ") {
		t.Errorf("sidecar %q: not the ciphertext's hash and the two comment lines", side)
	}
	if !bundle.IsEncrypted(data) || bytes.Contains(data, []byte("a secret prompt")) || bytes.Contains(data, []byte("bundle.json")) {
		t.Fatal("not an age file, or plaintext in it")
	}
	ids, err := bundle.ReadIdentities([]string{testIdentity})
	if err != nil {
		t.Fatal(err)
	}
	hdr, res, err := bundle.Verify(bytes.NewReader(data), &bundle.Options{Identities: ids})
	if err != nil || !res.Encrypted || !res.Complete || len(res.Problems) != 0 || res.Members != 1 || hdr.Host.Hostname != "sealed" {
		t.Fatalf("decrypted: %v %+v", err, res)
	}
	if _, _, err := bundle.Verify(bytes.NewReader(data), nil); err != bundle.ErrEncrypted {
		t.Fatalf("without a key: %v", err)
	}
	cmd = exec.Command(bin, "--root", root, "--encrypt-to", rcp, "-o", "-")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if _, res, err := bundle.Verify(bytes.NewReader(stdout.Bytes()), &bundle.Options{Identities: ids}); err != nil || !res.Encrypted || !res.Complete {
		t.Fatalf("stdout: %v %+v", err, res)
	}
}

// TestEncryptToRefused: a recipient that does not parse, a private key
// given as a recipient (never echoed), and a recipients file that is a
// FIFO or a link stop the run before anything is written, exit 2.
func TestEncryptToRefused(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), "{}\n")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "r.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	rcp, _ := filepath.Abs(testRecipients)
	link := filepath.Join(dir, "r.link")
	os.Symlink(rcp, link)
	cases := map[string]string{
		"age1nope":              `--encrypt-to: recipient "age1nope": error at line 1: malformed recipient`,
		"AGE-SECRET-KEY-1QQQQQ": "an age identity (a private key, AGE-SECRET-KEY-...) was given where a recipient (age1...) belongs",
		fifo:                    "--encrypt-to: recipients file " + fifo + ": not a regular file",
		link:                    "--encrypt-to: recipients file " + link + ": not a regular file",
		filepath.Join(dir, "x"): "--encrypt-to: recipients file " + filepath.Join(dir, "x") + ": does not exist",
	}
	for arg, want := range cases {
		out := t.TempDir()
		cmd := exec.Command(bin, "--root", root, "--encrypt-to", arg)
		cmd.Dir = out
		b, err := cmd.CombinedOutput()
		ee, _ := err.(*exec.ExitError)
		if ee == nil || ee.ExitCode() != 2 || !strings.Contains(string(b), want) || strings.Contains(string(b), "QQQQQ") {
			t.Errorf("%s: %v %s", arg, err, b)
		}
		if ents, _ := os.ReadDir(out); len(ents) != 0 {
			t.Errorf("%s: wrote %v", arg, ents)
		}
	}
}

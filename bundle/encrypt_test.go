package bundle_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"filippo.io/age"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// sha256Chain is n bytes that do not compress.
func sha256Chain(n int) []byte {
	out := make([]byte, 0, n+32)
	s := sha256.Sum256([]byte("seed"))
	for len(out) < n {
		out = append(out, s[:]...)
		s = sha256.Sum256(s[:])
	}
	return out[:n]
}

const (
	testIdentity      = "testdata/age/TEST-ONLY-identity.txt"
	testOtherIdentity = "testdata/age/TEST-ONLY-other-identity.txt"
	testRecipients    = "testdata/age/recipients.txt"
	testRecipient     = "age1p6x9pjy8tzakmja0mazx35vgh7yzxpzw007pne6lcxwkfhhxwarqcp3af6"
)

func ids(t *testing.T, paths ...string) []age.Identity {
	t.Helper()
	got, err := bundle.ReadIdentities(paths)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// sealed encrypts plain to the TEST-ONLY recipient.
func sealed(t *testing.T, plain []byte) []byte {
	t.Helper()
	rs, _, err := bundle.ParseRecipients([]string{testRecipient})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := bundle.Encrypt(&buf, rs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(plain); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestEncryptedRoundTrip(t *testing.T) {
	plain := goodBundle(t)
	enc := sealed(t, plain)
	if !bundle.Sniff(enc[:bundle.SniffLen]) || !bundle.IsEncrypted(enc) || bundle.IsEncrypted(plain) || bytes.Contains(enc, []byte("history.jsonl")) {
		t.Fatalf("sniff or plaintext leak")
	}
	h, res, err := bundle.Verify(bytes.NewReader(enc), &bundle.Options{Identities: ids(t, testOtherIdentity, testIdentity)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Encrypted || !res.Complete || len(res.Problems) != 0 || len(res.Verified) != 1 || h.BundleID == "" {
		t.Fatalf("encrypted %v complete %v problems %v verified %d", res.Encrypted, res.Complete, res.Problems, len(res.Verified))
	}
	// The plain bundle read with identities is read as before.
	_, res, err = bundle.Verify(bytes.NewReader(plain), &bundle.Options{Identities: ids(t, testIdentity)})
	if err != nil || res.Encrypted || len(res.Verified) != 1 {
		t.Fatalf("plain: %v %v", err, res)
	}
}

// TestEncryptedWithoutTheKey: no identity, or only one that is not a
// recipient, is an error naming the reason, never an empty bundle.
func TestEncryptedWithoutTheKey(t *testing.T) {
	enc := sealed(t, goodBundle(t))
	_, _, err := bundle.Verify(bytes.NewReader(enc), nil)
	if !errors.Is(err, bundle.ErrEncrypted) || !strings.Contains(err.Error(), "--identity") {
		t.Fatalf("no identity: %v", err)
	}
	_, _, err = bundle.Verify(bytes.NewReader(enc), &bundle.Options{Identities: ids(t, testOtherIdentity)})
	if !errors.Is(err, bundle.ErrDecrypt) || err.Error() != "bundle: cannot decrypt: none of the 1 given identities is a recipient of this bundle" {
		t.Fatalf("wrong identity: %v", err)
	}
	// A header cut inside its first stanza: a damaged bundle (as a plain
	// one cut inside bundle.json), not a key that does not open it.
	_, _, err = bundle.Verify(bytes.NewReader(enc[:40]), &bundle.Options{Identities: ids(t, testIdentity)})
	if !errors.Is(err, bundle.ErrHeaderCut) || errors.Is(err, bundle.ErrDecrypt) || err.Error() != "bundle: not a DoubleAgent bundle: encrypted bundle cut short or corrupt in its age header (before the first chunk, which holds bundle.json: nothing can be read): failed to read header: failed to parse header: failed to read line: EOF" {
		t.Fatalf("cut header: %v", err)
	}
	// Cut inside its only chunk: nothing of bundle.json can be read.
	_, _, err = bundle.Verify(bytes.NewReader(enc[:len(enc)-1]), &bundle.Options{Identities: ids(t, testIdentity)})
	if !errors.Is(err, bundle.ErrHeaderCut) || err.Error() != "bundle: not a DoubleAgent bundle: encrypted bundle cut short or corrupt in its first 64 KiB chunk, which holds bundle.json (age delivers a chunk only once it authenticates: without it nothing can be read): bundle: encrypted stream corrupt, cut short or with data after its end: failed to decrypt and authenticate payload chunk, file may be corrupted or tampered with" {
		t.Fatalf("cut in the only chunk: %v", err)
	}
}

// TestEncryptedTampering: a flipped byte in the payload, a stream cut
// short and bytes appended are each reported as a truncated bundle,
// with the age layer's reason, and what came before is still accounted.
func TestEncryptedTampering(t *testing.T) {
	// Incompressible content, so the ciphertext spans several 64 KiB
	// chunks and the damage is past bundle.json.
	rnd := sha256Chain(300 << 10)
	enc := sealed(t, bundletest.Build(t, []bundletest.File{{Path: "/home/alice/.claude/history.jsonl", Agent: "claude-code", Target: "history", User: "alice", Data: rnd}}))
	flipped := bytes.Clone(enc)
	flipped[len(enc)/2] ^= 0x01
	cases := []struct {
		name, kind string
		data       []byte
	}{
		{"flipped payload byte", bundle.ProblemTruncated, flipped},
		{"cut short", bundle.ProblemTruncated, enc[:len(enc)-30]},
		// age cannot tell bytes appended from a last chunk damaged: the
		// chunk before them no longer authenticates as the last one.
		{"bytes appended", bundle.ProblemTruncated, append(bytes.Clone(enc), "extra"...)},
	}
	for _, c := range cases {
		_, res, err := bundle.Verify(bytes.NewReader(c.data), &bundle.Options{Identities: ids(t, testIdentity)})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		found := false
		for _, p := range res.Problems {
			if p.Kind == c.kind && strings.Contains(p.Msg, "encrypted stream") {
				found = true
			}
		}
		if !found || res.Complete && c.kind == bundle.ProblemTruncated {
			t.Errorf("%s: problems %v complete %v", c.name, res.Problems, res.Complete)
		}
	}
}

func TestParseRecipients(t *testing.T) {
	rs, src, err := bundle.ParseRecipients([]string{testRecipient, testRecipients})
	if err != nil || len(rs) != 2 || len(src) != 2 || src[0] != "recipient "+testRecipient || src[1] != "recipients file "+testRecipients+": 1 recipients" {
		t.Fatalf("%d %q %v", len(rs), src, err)
	}
	for _, bad := range []string{"age1notakey", "AGE-SECRET-KEY-1D8CA35C0EA5ZCU92VC8TNSLR0MDSR85CSD6T2K65ERTDV6TJ5D3SET0W6P", "testdata/age/no-such-file", testIdentity} {
		_, _, err := bundle.ParseRecipients([]string{bad})
		if err == nil {
			t.Errorf("%s: accepted", bad)
		}
		if err != nil && strings.Contains(err.Error(), "D8CA35C0") {
			t.Errorf("%s: the error prints key material: %v", bad, err)
		}
	}
	if _, _, err := bundle.ParseRecipients(nil); err == nil {
		t.Error("no recipient accepted")
	}
}

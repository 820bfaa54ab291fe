package bundle_test

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/klauspost/compress/zstd"
)

func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// TestWriterMemberHashes: the writer's HeaderSHA256 and ManifestSHA256 are
// those of the bundle.json and manifest.jsonl members as a reader (or tar
// -x) gets them, and the full sidecar round-trips through ReadSidecar.
func TestWriterMemberHashes(t *testing.T) {
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "0190aaaa-0000-7000-8000-000000000001", Host: bundle.Host{Hostname: "h"}})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("hello\n")
	if _, err := w.AddFile(bundle.Entry{Path: "/home/a/.claude/history.jsonl", Agent: "claude-code", Target: "history", User: "a", Type: "file"}, int64(len(data)), bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(bundle.Summary{Complete: true}, nil); err != nil {
		t.Fatal(err)
	}
	members := map[string][]byte{}
	zr, _ := zstd.NewReader(bytes.NewReader(buf.Bytes()))
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(tr)
		members[h.Name] = b
	}
	if w.HeaderSHA256() != hexSum(members[bundle.HeaderName]) || w.ManifestSHA256() != hexSum(members[bundle.ManifestName]) {
		t.Fatalf("writer hashes %s %s, members %s %s", w.HeaderSHA256(), w.ManifestSHA256(), hexSum(members[bundle.HeaderName]), hexSum(members[bundle.ManifestName]))
	}
	p := filepath.Join(t.TempDir(), "b.tar.zst")
	os.WriteFile(p, buf.Bytes(), 0o644)
	f, err := bundle.CreateNew(p+".sha256", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	want := bundle.Sidecar{Bundle: hexSum(buf.Bytes()), Name: "b.tar.zst", Header: w.HeaderSHA256(), Manifest: w.ManifestSHA256()}
	if err := bundle.WriteSidecarFull(f, want); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p + ".sha256")
	if string(b) != want.Bundle+"  b.tar.zst\n# bundle.json sha256 "+want.Header+"\n# manifest.jsonl sha256 "+want.Manifest+"\n" {
		t.Fatalf("sidecar:\n%s", b)
	}
	got, err := bundle.ReadSidecar(p + ".sha256")
	if err != nil || got != want {
		t.Fatalf("ReadSidecar: %+v, %v; want %+v", got, err, want)
	}
	// CheckSidecar still reads its first line (sha256sum -c skips the
	// comments too).
	if r, err := bundle.CheckSidecar(p); err != nil || !r.OK {
		t.Fatalf("CheckSidecar: %+v %v", r, err)
	}
}

// TestReadSidecarOldAndBad: a one-line sidecar of an older collector reads
// with no member hashes; a damaged one is an error.
func TestReadSidecarOldAndBad(t *testing.T) {
	got, err := bundle.ReadSidecar("testdata/v2/fake-home.tar.zst.sha256")
	if err != nil || got != (bundle.Sidecar{Bundle: "8f69ba23e4951a931614564c739cbf8df347a43862bbff56ea5edef6f5bdf3a7", Name: "fake-home.tar.zst"}) {
		t.Fatalf("old sidecar: %+v %v", got, err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"short":   "abc  x.tar.zst\n",
		"badline": strings.Repeat("a", 64) + "  x\n# manifest.jsonl sha256 xyz\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := bundle.ReadSidecar(p); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

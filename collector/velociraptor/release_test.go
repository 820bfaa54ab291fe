package velociraptor

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinariesMatchTheArtifact builds the six collectors as
// scripts/release.sh does (CGO_ENABLED=0, -trimpath, -buildvcs=false,
// -ldflags "-s -w -buildid=") from this source and fails when a binary's
// SHA-256 is not the one SHA256SUMS (and so, by TestToolsMatchTheRelease,
// the artifact's expected_hash) declares: a collector changed since the
// last scripts/release.sh, whose hunt Velociraptor would refuse. The Go
// toolchain is part of the bytes; the artifact's first line names the one
// the hashes were made with, and a test run with another says so.
func TestBinariesMatchTheArtifact(t *testing.T) {
	art, err := os.ReadFile("DoubleAgent.Collect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(art), "\n")
	const prefix = "# release: built by scripts/release.sh with "
	if !strings.HasPrefix(first, prefix) {
		t.Fatalf("the artifact's first line %q does not name the toolchain", first)
	}
	want := strings.Fields(strings.TrimPrefix(first, prefix))[0]
	want = strings.TrimSuffix(want, ";")
	gov, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(string(gov))
	sums := map[string]string{}
	b, err := os.ReadFile("SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			sums[f[1]] = f[0]
		}
	}
	dir := t.TempDir()
	for _, p := range platforms {
		goos, goarch, _ := strings.Cut(p, "_")
		file := "doubleagent-collector_" + p
		if goos == "windows" {
			file += ".exe"
		}
		out := filepath.Join(dir, file)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -buildid=", "-o", out, ".")
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false", "GOOS="+goos, "GOARCH="+goarch)
		if o, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: go build: %v\n%s", p, err, o)
		}
		bin, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(bin)
		if hs := hex.EncodeToString(h[:]); hs != sums[file] {
			t.Errorf("%s built here (%s) has SHA-256 %s; SHA256SUMS and the artifact declare %s (made with %s): run scripts/release.sh", file, got, hs, sums[file], want)
		}
	}
}

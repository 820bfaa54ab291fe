//go:build unix

package main

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/klauspost/compress/zstd"
)

// collectorBin is the collector binary built for this test binary run.
var collectorBin struct {
	once sync.Once
	dir  string // the temp dir holding it, removed by TestMain
	path string
	err  error
}

// buildCollector builds the command once per test binary run (the first
// caller builds it, every later one reuses it) and returns its path.
func buildCollector(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the collector binary")
	}
	collectorBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "doubleagent-collector-test-")
		if err != nil {
			collectorBin.err = err
			return
		}
		collectorBin.dir = dir
		bin := filepath.Join(dir, "doubleagent-collector")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			collectorBin.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		collectorBin.path = bin
	})
	if collectorBin.err != nil {
		t.Fatal(collectorBin.err)
	}
	return collectorBin.path
}

// TestMain runs the tests and removes the binary buildCollector built.
func TestMain(m *testing.M) {
	code := m.Run()
	if collectorBin.dir != "" {
		os.RemoveAll(collectorBin.dir)
	}
	os.Exit(code)
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStdoutPipe runs the binary with -o - into a pipe: the bundle is the
// whole of stdout and verifies; the log (JSON, stderr not being a
// terminal) and the closing line are on stderr; no progress is drawn.
func TestStdoutPipe(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), `{"display":"x"}`+"\n")
	writeFile(t, filepath.Join(root, "etc/hostname"), "piped\n")
	cmd := exec.Command(bin, "--root", root, "-o", "-", "--case", "C-9")
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("collector: %v\n%s", err, stderr.String())
	}
	hdr, res, err := bundle.Verify(bytes.NewReader(stdout.Bytes()), nil)
	if err != nil {
		t.Fatalf("stdout is not a bundle: %v", err)
	}
	if len(res.Problems) != 0 || !res.Complete || res.Members != 1 || hdr.Host.Hostname != "piped" || hdr.Host.Case != "C-9" {
		t.Errorf("bundle from stdout: problems %v, complete %v, members %d, header %+v", res.Problems, res.Complete, res.Members, hdr.Host)
	}
	if got := strings.Join(hdr.Host.CommandLine[1:], " "); got != "--root "+root+" -o - --case C-9" {
		t.Errorf("command line recorded as %q", got)
	}
	if !strings.Contains(stderr.String(), `"message":"collection started"`) || !strings.Contains(stderr.String(), "written to stdout") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if strings.Contains(stderr.String(), "\r") {
		t.Error("progress drawn although stderr is not a terminal")
	}
	if entries, _ := os.ReadDir(cmd.Dir); len(entries) != 0 {
		t.Errorf("files written beside stdout: %v", entries)
	}
}

// TestOutputRefusedAndExitCodes: an output inside the image is refused
// with exit code 2 and nothing is written; a normal run writes the bundle
// and its .sha256.
func TestOutputRefusedAndExitCodes(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), "{}\n")
	out := filepath.Join(root, "home/alice/out.tar.zst")
	cmd := exec.Command(bin, "--root", root, "-o", out)
	msg, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(msg), "refusing") {
		t.Errorf("output inside the image: %v %s", err, msg)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("the refused output was created")
	}

	good := filepath.Join(t.TempDir(), "b.tar.zst")
	if msg, err := exec.Command(bin, "--root", root, "-o", good).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, msg)
	}
	sc, err := bundle.CheckSidecar(good)
	if err != nil || !sc.Present || !sc.OK {
		t.Errorf("sidecar: %+v %v", sc, err)
	}
	// The sidecar also holds the SHA-256 of bundle.json and manifest.jsonl
	// as tar -x leaves them (issue 22 item 7).
	full, err := bundle.ReadSidecar(good + ".sha256")
	if err != nil || full.Bundle != sc.Expected || full.Name != "b.tar.zst" {
		t.Fatalf("ReadSidecar: %+v %v", full, err)
	}
	members := untar(t, good)
	if h := sha256.Sum256(members[bundle.HeaderName]); full.Header != hex.EncodeToString(h[:]) {
		t.Errorf("sidecar bundle.json sha256 %s, member %x", full.Header, h)
	}
	if h := sha256.Sum256(members[bundle.ManifestName]); full.Manifest != hex.EncodeToString(h[:]) {
		t.Errorf("sidecar manifest.jsonl sha256 %s, member %x", full.Manifest, h)
	}
	// The same output twice is refused rather than overwritten.
	cmd = exec.Command(bin, "--root", root, "-o", good)
	if _, err := cmd.CombinedOutput(); !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("existing output: %v", err)
	}
}

// TestSIGTERM: a run stopped by SIGTERM leaves a valid bundle marked
// incomplete and exits 3. Deterministic: stdout is a pipe not read until
// the signal is sent, so the collector is blocked mid-run when it arrives.
func TestSIGTERM(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	// 320 incompressible files: 20 MiB of output, far more than the pipe,
	// the collector's 1 MiB output buffer and the zstd encoder's blocks
	// hold (with 80 files a loaded CI machine once saw the run end before
	// the signal).
	pcg := rand.New(rand.NewPCG(3, 4))
	rnd := make([]byte, 64<<10)
	for i := 0; i < 320; i++ {
		for j := range rnd {
			rnd[j] = byte(pcg.Uint32())
		}
		writeFile(t, filepath.Join(root, "home/alice/.claude/paste-cache", fmt.Sprintf("p%04d.txt", i)), string(rnd))
	}
	cmd := exec.Command(bin, "--root", root, "-o", "-")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the pipe is full (the collector blocks writing), then signal.
	first := make([]byte, 1)
	if _, err := stdout.Read(first); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(stderr.String(), "walking home") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdout)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("exit: %v, want code 3\n%s", err, stderr.String())
	}
	_, res, err := bundle.Verify(bytes.NewReader(append(first, rest...)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		if p.Kind != bundle.ProblemIncomplete {
			t.Errorf("problem: %s", p)
		}
	}
	if res.Summary == nil || res.Summary.Complete || res.Summary.Reason != "interrupted" || res.Summary.Files >= 80 {
		t.Errorf("summary: %+v", res.Summary)
	}
}

// syncBuffer is a bytes.Buffer safe to read while a process writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestStdoutReaderGoesAway: `-o - | head -c 1000` ends with exit 1 and a
// message saying the reader closed the pipe, not a silent SIGPIPE (141).
func TestStdoutReaderGoesAway(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	noise := make([]byte, 8<<20) // incompressible: more than the pipe holds
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), string(noise))
	cmd := exec.Command(bin, "--root", root, "-o", "-")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = pw, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	head := make([]byte, 1000)
	if _, err := io.ReadFull(pr, head); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v (want 1)\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "doubleagent-collector: writing the bundle failed: the reader of stdout closed the pipe after ") ||
		!strings.Contains(stderr.String(), "partial bundle (write failed, no .sha256 sidecar)") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}

// TestOutputThroughALinkIsRefused: a link (or a file) planted where the
// bundle or its .sha256 sidecar goes is refused before anything is
// collected, exit 2; the link's target is unchanged.
func TestOutputThroughALinkIsRefused(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), "{}\n")
	dir := t.TempDir()
	victim := filepath.Join(dir, "shadow")
	writeFile(t, victim, "root:x:0:0\n")
	for _, planted := range []string{"out.tar.zst", "out.tar.zst.sha256"} {
		t.Run(planted, func(t *testing.T) {
			d := t.TempDir()
			if err := os.Symlink(victim, filepath.Join(d, planted)); err != nil {
				t.Fatal(err)
			}
			msg, err := exec.Command(bin, "--root", root, "-o", filepath.Join(d, "out.tar.zst")).CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(msg), "something is already there; refusing to overwrite or follow it") {
				t.Fatalf("exit %v: %s", err, msg)
			}
			if b, _ := os.ReadFile(victim); string(b) != "root:x:0:0\n" {
				t.Fatalf("victim changed: %q", b)
			}
			ents, _ := os.ReadDir(d)
			if len(ents) != 1 || ents[0].Name() != planted {
				t.Fatalf("folder holds %v", ents)
			}
		})
	}
}

// TestProfiles: --cpuprofile and --memprofile write pprof files (gzip), are
// created as the bundle is (an existing file or one inside the image is
// refused with exit 2 before anything is collected).
func TestProfiles(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/history.jsonl"), "{}\n")
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	if msg, err := exec.Command(bin, "--root", root, "-o", filepath.Join(dir, "b.tar.zst"), "--cpuprofile", cpu, "--memprofile", mem).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, msg)
	}
	for _, p := range []string{cpu, mem} {
		b, err := os.ReadFile(p)
		if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s: not a gzip pprof file (%d bytes, %v)", p, len(b), err)
		}
	}
	var ee *exec.ExitError
	for name, args := range map[string][]string{
		"existing":     {"--cpuprofile", cpu},
		"inside image": {"--memprofile", filepath.Join(root, "home/alice/mem.out")},
	} {
		out := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".tar.zst")
		msg, err := exec.Command(bin, append([]string{"--root", root, "-o", out}, args...)...).CombinedOutput()
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(msg), "profile") {
			t.Errorf("%s: %v %s", name, err, msg)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: the bundle was written", name)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "home/alice/mem.out")); !os.IsNotExist(err) {
		t.Error("a profile was written inside the image")
	}
}

// untar returns a bundle's members by name.
func untar(t *testing.T, p string) map[string][]byte {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := zstd.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(tr)
		out[h.Name] = b
	}
	return out
}

// TestLogReaderGoesAway: `2>&1 | head -c 10` with the bundle written to a
// file: the reader of the log closing its pipe no longer kills the
// collector with SIGPIPE (it left a 0-byte bundle and sidecar): the
// bundle is finished, its sidecar names its hash, exit 0.
func TestLogReaderGoesAway(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	for i := range 200 {
		writeFile(t, filepath.Join(root, fmt.Sprintf("home/alice/.claude/projects/p/%03d.jsonl", i)), "{}\n")
	}
	out := filepath.Join(t.TempDir(), "b.tar.zst")
	cmd := exec.Command(bin, "--root", root, "-o", out, "--log-level", "debug")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if _, err := io.ReadFull(pr, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v (want 0)", err)
	}
	b, err := os.ReadFile(out)
	if err != nil || len(b) == 0 {
		t.Fatalf("bundle: %d bytes, %v", len(b), err)
	}
	sum := sha256.Sum256(b)
	side, err := os.ReadFile(out + ".sha256")
	if err != nil || !strings.HasPrefix(string(side), hex.EncodeToString(sum[:])+"  ") {
		t.Fatalf("sidecar %q, %v; bundle sha256 %x", side, err, sum)
	}
}

// TestNothingUnseenPlainRootErrors: a --root that is missing, or a file,
// is refused in plain words with exit 2, before anything is created.
func TestNothingUnseenPlainRootErrors(t *testing.T) {
	bin := buildCollector(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	writeFile(t, file, "x")
	for _, c := range []struct{ root, want string }{
		{filepath.Join(dir, "missing"), "doubleagent-collector: --root: no such file or folder: " + filepath.Join(dir, "missing") + "\n"},
		{filepath.Join(file, "below"), "doubleagent-collector: --root: no such file or folder: " + filepath.Join(file, "below") + "\n"},
		{file, "doubleagent-collector: --root: not a folder: " + file + " (--root takes the folder of a mounted image or copied tree)\n"},
	} {
		for _, mode := range [][]string{{"--inventory"}, {"-o", filepath.Join(dir, "b.tar.zst")}} {
			cmd := exec.Command(bin, append([]string{"--root", c.root}, mode...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 || stderr.String() != c.want || stdout.Len() != 0 {
				t.Errorf("--root %s %v: %v\nstderr %q\nwant   %q\nstdout %q", c.root, mode, err, stderr.String(), c.want, stdout.String())
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.tar.zst")); !os.IsNotExist(err) {
		t.Error("a bundle was created for an unusable --root")
	}
}

// TestSIGINTDuringLargeCopy: SIGINT while a large file is copied stops the
// copy at its next chunk, not at the file's end (before, a 4 GiB file was
// copied whole, 10 to 35 s, before the collector looked at the signal):
// the file's member is padded to its declared size at once, its row says
// how many bytes are the file's (interrupted_at) with their hash, the
// bundle is closed with its manifest marked interrupted and its sidecar,
// and the collector exits 3. The file is sparse (1 GiB, 4 MiB of random
// bytes first), so the test asserts where the copy stopped, not how long
// it took.
func TestSIGINTDuringLargeCopy(t *testing.T) {
	bin := buildCollector(t)
	root := filepath.Join(t.TempDir(), "img")
	writeFile(t, filepath.Join(root, "home/alice/.claude/settings.json"), `{"model":"x"}`)
	big := filepath.Join(root, "home/alice/.claude/projects/p/big.jsonl")
	pcg := rand.New(rand.NewPCG(5, 6))
	head := make([]byte, 4<<20)
	for i := range head {
		head[i] = byte(pcg.Uint32())
	}
	writeFile(t, big, string(head))
	const size = 1 << 30
	if err := os.Truncate(big, size); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "b.tar.zst")
	cmd := exec.Command(bin, "--root", root, "--full", "-o", out, "--log-format", "json")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The random head is 4 MiB of output, the rest of the bundle a few
	// KiB: past 2 MiB written, the copy is inside the big file.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if fi, err := os.Stat(out); err == nil && fi.Size() > 2<<20 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the bundle never grew past 2 MiB\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute): // a bound, not a measure
		cmd.Process.Kill()
		t.Fatalf("the collector did not stop after SIGINT\n%s", stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(stderr.String(), "doubleagent-collector: interrupted: the bundle is closed and marked incomplete") {
		t.Fatalf("exit: %v, want code 3\n%s", err, stderr.String())
	}
	sc, err := bundle.CheckSidecar(out)
	if err != nil || !sc.Present || !sc.OK {
		t.Errorf("sidecar: %+v %v", sc, err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, res, err := bundle.Verify(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	var row *bundle.Entry
	for i, e := range res.Manifest {
		if e.Path == "/home/alice/.claude/projects/p/big.jsonl" {
			row = &res.Manifest[i]
		}
	}
	if row == nil || row.InterruptedAt == nil {
		t.Fatalf("no interrupted row for the big file: %+v", row)
	}
	k := *row.InterruptedAt
	// Past 2 MiB of output, at least 1 MiB of the incompressible head
	// was copied (the collector's output buffer is 1 MiB).
	if k < 1<<20 || k >= size || row.Size != size || row.Status != bundle.StatusCollected || res.Verified[row.ArchivePath] {
		t.Fatalf("row %+v (interrupted_at %d): want the copy stopped inside the file, before its end", row, k)
	}
	src, err := os.Open(big)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := sha256.New()
	if _, err := io.CopyN(h, src, k); err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); row.SHA256 != got {
		t.Errorf("row sha256 %s, the file's first %d bytes %s", row.SHA256, k, got)
	}
	var probs []string
	for _, p := range res.Problems {
		probs = append(probs, p.String())
	}
	want := []string{
		fmt.Sprintf("row_error /home/alice/.claude/projects/p/big.jsonl: collected: the collection was interrupted while this file was copied: the member holds its first %d of %d bytes, then zero padding; sha256 is of those %d bytes", k, size, k),
		"incomplete_collection manifest.jsonl: the collector marked this bundle incomplete: interrupted",
	}
	if strings.Join(probs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(probs, "\n"), strings.Join(want, "\n"))
	}
	if res.Summary == nil || res.Summary.Complete || res.Summary.Reason != "interrupted" || res.Truncated {
		t.Errorf("summary %+v, truncated %v", res.Summary, res.Truncated)
	}
	if !bytes.Contains(res.Log, []byte(`"message":"interrupted while this file was copied: its member holds the bytes copied, then zero padding (interrupted_at in its manifest row)"`)) {
		t.Errorf("the bundle's log does not say where the copy stopped:\n%s", res.Log)
	}
}

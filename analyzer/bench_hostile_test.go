//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
)

// peakRSS runs cmd and returns its peak resident set in bytes: the
// VmHWM of /proc/PID/status, read every 5 ms while it runs (the high-water
// mark only grows, so the last read is the peak unless it came in the
// last 5 ms). ru_maxrss is no use here: a child started with vfork
// inherits the test process's own high-water mark at exec.
func peakRSS(b *testing.B, cmd *exec.Cmd) (int64, []byte, error) {
	b.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if peak == 0 {
				b.Skip("no /proc/PID/status VmHWM on this OS")
			}
			return peak, out.Bytes(), err
		case <-tick.C:
			st, err := os.ReadFile(status)
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(st), "\n") {
				if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
					var kb int64
					fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
					peak = max(peak, kb<<10)
				}
			}
		}
	}
}

// timelineRSS runs doubleagent timeline and returns its peak RSS.
func timelineRSS(b *testing.B, args ...string) int64 {
	b.Helper()
	peak, out, err := peakRSS(b, exec.Command(bin, append([]string{"timeline"}, args...)...))
	if err != nil && !strings.Contains(err.Error(), "exit status 1") || !strings.Contains(string(out), "\nrows written: ") {
		b.Fatalf("%v: %v\n%.2000s", args, err, out)
	}
	return peak
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// nulBundle writes a small bundle holding one transcript of n NUL bytes.
func nulBundle(b *testing.B, p string, n int64) { fillBundle(b, p, n, zeros{}) }

type letters struct{}

func (letters) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// fillBundle writes a bundle holding one transcript of n bytes from r.
func fillBundle(b *testing.B, p string, n int64, r io.Reader) {
	b.Helper()
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w, err := bundle.NewWriter(f, bundle.Header{BundleID: filepath.Base(p), Host: bundle.Host{Hostname: "nul"}})
	if err != nil {
		b.Fatal(err)
	}
	path := "/home/u/.claude/projects/-p/11111111-2222-4333-8444-555555555555.jsonl"
	if _, err := w.AddFile(bundle.Entry{Path: path, Agent: "claude-code", Target: "projects", Kind: "transcript", User: "u", Home: "/home/u", Type: "file"}, n, io.LimitReader(r, n)); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(bundle.Summary{Complete: true}, nil); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// BenchmarkNULMemory measures the analyzer's peak RSS on the two NUL
// cases of hostile evidence: a loose tree holding a 2 GiB sparse NUL
// "transcript", and a folder of four small bundles each holding a 1 GiB
// NUL member, at --jobs 1 and 4. NULs are dropped before a line is
// accumulated, so both must stay well under 300 MB (peak-MB) at any
// --jobs. A third case, four bundles each holding one 60 MiB line, shows
// the bound on long lines across jobs (parser.LongLines): at most two are
// held at once, whatever --jobs is.
//
//	go test -run '^$' -bench NULMemory -benchtime 1x ./analyzer
func BenchmarkNULMemory(b *testing.B) {
	loose := b.TempDir()
	tp := filepath.Join(loose, "home/u/.claude/projects/-p/11111111-2222-4333-8444-555555555555.jsonl")
	os.MkdirAll(filepath.Dir(tp), 0o755)
	f, err := os.Create(tp)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil { // sparse: no disk used
		b.Fatal(err)
	}
	f.Close()
	bundles := b.TempDir()
	for i := 0; i < 4; i++ {
		nulBundle(b, filepath.Join(bundles, fmt.Sprintf("nul%d.tar.zst", i)), 1<<30)
	}
	// And the bound on lines across jobs: four transcripts that are each
	// one line of 60 MiB (under the 64 MiB limit, so each is held whole).
	long := b.TempDir()
	for i := 0; i < 4; i++ {
		fillBundle(b, filepath.Join(long, fmt.Sprintf("long%d.tar.zst", i)), 60<<20, letters{})
	}
	for _, c := range []struct{ name, input string }{{"loose-2GiB", loose}, {"bundles-4x1GiB", bundles}, {"lines-4x60MiB", long}} {
		for _, jobs := range []int{1, 4} {
			b.Run(fmt.Sprintf("%s/jobs=%d", c.name, jobs), func(b *testing.B) {
				var peak int64
				for i := 0; i < b.N; i++ {
					peak = max(peak, timelineRSS(b, c.input, "-o", filepath.Join(b.TempDir(), "o"), "--jobs", fmt.Sprint(jobs)))
				}
				b.ReportMetric(float64(peak)/1e6, "peak-MB")
			})
		}
	}
}

//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// manyFiles makes an image root holding n small Claude Code transcripts.
func manyFiles(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	line := []byte(`{"type":"user","cwd":"/home/u/p","message":{"role":"user","content":"hi"}}` + "\n")
	for i := 0; i < n; i++ {
		dir := filepath.Join(root, "home/u/.claude/projects", fmt.Sprintf("p%03d", i/1000))
		if i%1000 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%08d-aaaa-4bbb-8ccc-dddddddddddd.jsonl", i)), line, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkCollectorMemoryPerFile measures the collector's peak RSS over
// trees of 10k and 100k small transcripts. The manifest is held
// compressed and the walk streams, so memory must stay nearly flat in the
// number of files: it reports peak-MB for each tree and bytes/file, the
// growth per file between them.
//
//	go test -run '^$' -bench CollectorMemory -benchtime 1x ./collector
func BenchmarkCollectorMemoryPerFile(b *testing.B) {
	bin := buildCollector(b)
	sizes := []int{10_000, 100_000}
	peaks := map[int]int64{}
	for _, n := range sizes {
		root := manyFiles(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out := filepath.Join(b.TempDir(), "b.tar.zst")
				peak, msg, err := peakRSS(b, exec.Command(bin, "--root", root, "-o", out, "--log-level", "warn"))
				if err != nil {
					b.Fatalf("%v\n%s", err, msg)
				}
				peaks[n] = peak
			}
			b.ReportMetric(float64(peaks[n])/1e6, "peak-MB")
			if n == sizes[1] && peaks[sizes[0]] > 0 {
				b.ReportMetric(float64(peaks[n]-peaks[sizes[0]])/float64(sizes[1]-sizes[0]), "bytes/file")
			}
		})
	}
}

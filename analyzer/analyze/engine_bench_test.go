package analyze_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/rs/zerolog"
)

// BenchmarkTimeline runs the whole engine (read, spool, parse, sort,
// write) on DOUBLEAGENT_BENCH_INPUT (a bundle or folder made by
// scripts/bench --keep, say) or, without it, on the real-agent fixture
// root read as a loose tree. Profile with
//
//	DOUBLEAGENT_BENCH_INPUT=/var/tmp/doubleagent-bench/run-small/bench.tar.zst \
//	  go test -run '^$' -bench Timeline -benchtime 1x -cpuprofile cpu.out -memprofile mem.out ./analyze
func BenchmarkTimeline(b *testing.B) {
	in := os.Getenv("DOUBLEAGENT_BENCH_INPUT")
	if in == "" {
		in = filepath.Join("..", "..", "fixtures", "roots", "real-agents")
	}
	fi, err := os.Stat(in)
	if err != nil {
		b.Skipf("no input: %v", err)
	}
	if !fi.IsDir() {
		b.SetBytes(fi.Size())
	}
	b.ReportAllocs()
	for b.Loop() {
		out := b.TempDir()
		sum, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: []string{in}, OutDir: out,
			Parsers: parsers.All(), TempDir: b.TempDir(), Log: zerolog.Nop()})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(sum.Events), "events/op")
	}
}

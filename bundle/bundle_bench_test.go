package bundle_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// Benchmarks of the bundle writer and reader on transcript-like content:
// the real-agent fixture's Claude Code transcripts, repeated.

func benchContent(b *testing.B, size int) []byte {
	files, _ := filepath.Glob("../fixtures/roots/real-agents/home/examiner/.claude/projects/*/*.jsonl")
	var one []byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, d...)
	}
	if len(one) == 0 {
		one = bytes.Repeat([]byte(`{"type":"user","message":{"role":"user","content":"hello"},"timestamp":"2026-11-29T17:55:27.805Z"}`+"\n"), 100)
	}
	out := make([]byte, 0, size+len(one))
	for len(out) < size {
		out = append(out, one...)
	}
	return out[:size]
}

var benchHeader = bundle.Header{BundleID: "0190b1a4-0000-7000-8000-000000000001", CollectorVersion: "bench",
	StartedUTC: "2026-01-01T00:00:00.000Z", Host: bundle.Host{Hostname: "bench"}}

// writeBench writes n members of size bytes each.
func writeBench(b *testing.B, w io.Writer, data []byte, n int) {
	bw, err := bundle.NewWriter(w, benchHeader)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		e := bundle.Entry{Path: fmt.Sprintf("/home/u/.claude/projects/-home-u-demo/%08d.jsonl", i), Agent: "claude-code",
			Target: "projects", Kind: "transcript", User: "u", Home: "/home/u", Type: "file", MTime: "2026-11-29T17:55:27.805123456Z"}
		if _, err := bw.AddFile(e, int64(len(data)), bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
	if err := bw.Close(bundle.Summary{Complete: true, EndedUTC: "2026-01-01T00:00:01.000Z"}, nil); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkWriter(b *testing.B) {
	for _, c := range []struct {
		name    string
		size, n int
	}{{"small-files", 16 << 10, 256}, {"one-64MB-file", 64 << 20, 1}} {
		b.Run(c.name, func(b *testing.B) {
			data := benchContent(b, c.size)
			b.SetBytes(int64(c.size * c.n))
			b.ReportAllocs()
			for b.Loop() {
				writeBench(b, io.Discard, data, c.n)
			}
		})
	}
}

func BenchmarkReader(b *testing.B) {
	for _, c := range []struct {
		name    string
		size, n int
	}{{"small-files", 16 << 10, 256}, {"one-64MB-file", 64 << 20, 1}} {
		b.Run(c.name, func(b *testing.B) {
			var buf bytes.Buffer
			writeBench(b, &buf, benchContent(b, c.size), c.n)
			raw := buf.Bytes()
			b.SetBytes(int64(c.size * c.n))
			b.ReportAllocs()
			for b.Loop() {
				r, err := bundle.Open(bytes.NewReader(raw), nil)
				if err != nil {
					b.Fatal(err)
				}
				for {
					m, err := r.Next()
					if err != nil {
						break
					}
					if _, err := io.Copy(io.Discard, m); err != nil {
						b.Fatal(err)
					}
				}
				if res := r.Result(); len(res.Problems) > 0 || res.Members != c.n {
					b.Fatalf("problems %v, members %d", res.Problems, res.Members)
				}
			}
		})
	}
}

// Package analyzetest runs the whole engine in a parser package's tests:
// files into a bundle, the bundle (or any input) through analyze.Timeline,
// and the outputs read back, so each package does not copy the harness.
package analyzetest

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// Out is what one run wrote.
type Out struct {
	Sum      *analyze.Summary
	Rows     []timeline.Row
	Sessions []timeline.Session
	Problems []analyze.Problem
}

// Bundle writes files into a bundle in a fresh folder and returns its path.
// A file without an agent gets agent, without a user "examiner", without
// a modification time 2026-10-12.
func Bundle(t testing.TB, agent string, files []bundletest.File) string {
	t.Helper()
	for i := range files {
		if files[i].Agent == "" {
			files[i].Agent = agent
		}
		if files[i].User == "" {
			files[i].User = "examiner"
		}
		if files[i].MTime.IsZero() {
			files[i].MTime = time.Date(2026, 10, 12, 0, 0, 0, 0, time.UTC)
		}
	}
	b := filepath.Join(t.TempDir(), "b.tar.zst")
	if err := os.WriteFile(b, bundletest.Build(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	return b
}

// Run analyzes inputs with ps (one job, so the test is deterministic in
// its scheduling too) and reads the outputs.
func Run(t testing.TB, ps []parser.Parser, inputs ...string) Out {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	sum, err := analyze.Timeline(context.Background(), analyze.Options{Inputs: inputs, OutDir: out, Parsers: ps, Jobs: 1, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o := Read(t, out)
	o.Sum = sum
	return o
}

// Read reads the timeline, sessions and problems of an output folder.
func Read(t testing.TB, out string) Out {
	t.Helper()
	var o Out
	each(t, filepath.Join(out, analyze.TimelineJSONL), func(b []byte) {
		var r timeline.Row
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		o.Rows = append(o.Rows, r)
	})
	each(t, filepath.Join(out, analyze.SessionsJSONL), func(b []byte) {
		var s timeline.Session
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		o.Sessions = append(o.Sessions, s)
	})
	each(t, filepath.Join(out, analyze.ProblemsJSONL), func(b []byte) {
		var p analyze.Problem
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		o.Problems = append(o.Problems, p)
	})
	return o
}

func each(t testing.TB, p string, fn func([]byte)) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			fn(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

package analyze_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
)

// TestAgentWithNoRowsSaysWhy: a home with an empty little-coder prompt
// history and a little-coder session under ~/.pi (a pi session, parsed as
// pi) gives little-coder no row of its own; the summary line and the
// inventory say which files were read and where its transcripts' rows
// went, and an agent with rows carries no such note.
func TestAgentWithNoRowsSaysWhy(t *testing.T) {
	img := t.TempDir()
	put := func(rel, from string, data []byte) {
		p := filepath.Join(img, filepath.FromSlash(rel))
		if from != "" {
			b, err := os.ReadFile(from)
			if err != nil {
				t.Fatal(err)
			}
			data = b
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("etc/passwd", "", []byte("ex:x:1000:1000::/home/ex:/bin/sh\n"))
	put("home/ex/.pi/agent/little-coder-prompt-history.json", "", []byte("[]\n"))
	put("home/ex/.pi/agent/sessions/--home-ex-p--/2026-04-01T12-00-00-000Z_9c1d-lc.jsonl", filepath.Join("..", "parsers", "pi", "testdata", "littlecoder.jsonl"), nil)
	sum, out := run(t, analyze.Options{Inputs: []string{img}})
	const why = "1 file(s) read, no row written; its transcripts are pi sessions: their rows are under pi"
	want := "agents: little-coder 0 rows (" + why + "), pi 7 rows"
	if got := analyze.SummaryLines(sum); !slices.Contains(got, want) {
		t.Fatalf("summary lines %q, want %q", got, want)
	}
	var inv analyze.Inventory
	if b, err := os.ReadFile(filepath.Join(out, analyze.InventoryJSON)); err != nil || json.Unmarshal(b, &inv) != nil {
		t.Fatalf("inventory: %v", err)
	}
	got := map[string]string{}
	for _, a := range inv.Agents {
		got[a.Agent] = a.NoRows
	}
	if len(got) != 2 || got["little-coder"] != why || got["pi"] != "" {
		t.Fatalf("inventory no_rows %q", got)
	}
}

package analyze_test

import (
	"fmt"
	"maps"
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

// TestAgentProblemsCountedOnce: an agent's problems in inventory.json (and
// its no_rows note) are its rows in problems.jsonl, each once: a parser's
// own non-parse problem (kiro/sessions' skipped_record) was counted twice,
// once from the parse result and once as a row of a kind other than parse
// (kiro 2 for 1 row; the demo's kilo-code and opencode wal_state 2 for 1).
// windsurf is there with no file (a folder of ~/.local/share/devin).
func TestAgentProblemsCountedOnce(t *testing.T) {
	img := t.TempDir()
	put := func(rel string, data []byte) {
		p := filepath.Join(img, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("etc/passwd", []byte("ex:x:1000:1000::/home/ex:/bin/sh\n"))
	put("home/ex/.kiro/sessions/s1/session.json", []byte("not json at all\n"))
	put("home/ex/.local/share/devin/cli/transcripts/t1.json", []byte(`{"steps":[`))
	put("home/ex/.local/share/devin/cli/transcripts/t2.json", []byte("\x88garbage"))
	_, out := run(t, analyze.Options{Inputs: []string{img}})
	var inv analyze.Inventory
	if b, err := os.ReadFile(filepath.Join(out, analyze.InventoryJSON)); err != nil || json.Unmarshal(b, &inv) != nil {
		t.Fatalf("inventory: %v", err)
	}
	got := map[string]string{}
	for _, a := range inv.Agents {
		got[a.Agent] = fmt.Sprintf("%d|%s", a.Problems, a.NoRows)
	}
	want := map[string]string{
		"kiro":     "1|1 file(s) read, no row written; 1 problem(s) in problems.jsonl",
		"devin":    "2|2 file(s) read, no row written; 2 problem(s) in problems.jsonl",
		"windsurf": "0|",
	}
	if !maps.Equal(got, want) {
		t.Fatalf("inventory problems|no_rows %q, want %q", got, want)
	}
}

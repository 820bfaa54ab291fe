package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestSharedPathOfAnOlderBundle: a bundle whose manifest names a shared
// path by the agent that sorts first (crewai/task-outputs for a file in
// Local Deep Research's folder, as collectors before catalog 2026.12.03.4
// did) is read as the owner's, with a shared_path problem naming both:
// the owner's parser reads it (here an empty store, so its empty_store
// row names the Local Deep Research database), crewai's does not; its
// folder row of ~/.pi/agent (little-coder's then) makes pi present.
func TestSharedPathOfAnOlderBundle(t *testing.T) {
	dir := t.TempDir()
	b := filepath.Join(dir, "old.tar.zst")
	const path = "/home/a/.local/share/local-deep-research/latest_kickoff_task_outputs.db"
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "0190b1a4-0000-7000-8000-0000000000c1", CollectorVersion: "test", StartedUTC: "2026-06-02T00:00:00.000Z", Host: bundle.Host{Hostname: "old-host"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddFile(bundle.Entry{Path: path, Agent: "crewai", Target: "task-outputs", Kind: "sqlite", User: "a", Home: "/home/a", Type: "file", MTime: "2026-06-01T10:00:01Z"}, 0, strings.NewReader("")); err != nil {
		t.Fatal(err)
	}
	w.AddEntry(bundle.Entry{Path: "/home/a/.pi/agent", Agent: "little-coder", Target: "prompt-history", Kind: "history", User: "a", Home: "/home/a", Type: "dir", Status: bundle.StatusFolder, MTime: "2026-06-01T10:00:01Z"})
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-06-02T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(b, buf.Bytes(), 0o644)
	o := filepath.Join(dir, "o")
	out, code := runCLI(t, "timeline", b, "-o", o)
	if code != 1 {
		t.Fatalf("timeline: %d %s", code, out)
	}
	probs, err := os.ReadFile(filepath.Join(o, "problems.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, l := range strings.Split(strings.TrimSpace(string(probs)), "\n") {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, m["kind"].(string)+" "+m["agent"].(string)+" "+m["parser"].(string)+": "+m["message"].(string))
	}
	want := "shared_path local-deep-research : the manifest names this file crewai/task-outputs; the catalog gives the path to local-deep-research/databases (catalog/shared.go: two agents' targets match it, and a collector before catalog 2026.12.03.4 named it by the first agent by name): read as local-deep-research's\n" +
		"empty_store local-deep-research local-deep-research/databases: empty file: 0 bytes (and no WAL holding a page), where a Local Deep Research database should be: nothing to read\n" +
		"shared_path pi : the manifest names this folder little-coder/prompt-history; the catalog gives the path to pi/sessions (catalog/shared.go: two agents' targets name it, and a collector before catalog 2026.12.03.4 named it by the first agent by name): read as pi's"
	if got := strings.Join(kinds, "\n"); got != want {
		t.Errorf("problems:\n%s\nwant\n%s", got, want)
	}
	// The folder row makes pi present, not little-coder.
	var inv struct {
		Agents []struct {
			Agent    string         `json:"agent"`
			Statuses map[string]int `json:"statuses"`
		} `json:"agents"`
	}
	ib, err := os.ReadFile(filepath.Join(o, "inventory.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(ib, &inv); err != nil {
		t.Fatal(err)
	}
	var agents []string
	for _, a := range inv.Agents {
		agents = append(agents, fmt.Sprintf("%s %v", a.Agent, a.Statuses))
	}
	if got, want := strings.Join(agents, "; "), "local-deep-research map[collected:1]; pi map[folder:1]"; got != want {
		t.Errorf("inventory agents %q, want %q", got, want)
	}
}

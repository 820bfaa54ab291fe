package analyze_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
)

// TestFIFOStoreSideFileProblem: a regular -shm beside a SQLite store that
// is a FIFO (recorded skipped_special by the collector, never opened) is
// named as the side file of a FIFO, not "on the host was file"; a bundle
// of a collector before those words says the same from sidecar_of.
func TestFIFOStoreSideFileProblem(t *testing.T) {
	const store = "/home/bob/.n8n/database.sqlite"
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "01a23300-0000-7000-8000-000000000001", CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: "h"}})
	if err != nil {
		t.Fatal(err)
	}
	base := bundle.Entry{Agent: "n8n", Target: "database", Kind: "sqlite", User: "bob", Home: "/home/bob", Status: bundle.StatusSkippedSpecial}
	for _, e := range []bundle.Entry{
		{Path: store, Type: "fifo"},
		{Path: store + "-shm", Type: "file", SidecarOf: store, Error: "side file of " + store + ", which is a FIFO: not collected"},
		{Path: store + "-journal", Type: "file", SidecarOf: store, Error: "its store " + store + " is not a regular file"},
	} {
		e.Agent, e.Target, e.Kind, e.User, e.Home, e.Status = base.Agent, base.Target, base.Kind, base.User, base.Home, base.Status
		w.AddEntry(e)
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-12-01T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "fifo.tar.zst")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := run(t, analyze.Options{Inputs: []string{p}})
	want := map[string]string{
		store:              store + " on the host was fifo: not collected, not read",
		store + "-shm":     "side file of " + store + ", which is a FIFO: not collected, not read",
		store + "-journal": "side file of " + store + ", which is not a regular file: not collected, not read",
	}
	got := map[string]string{}
	for _, pr := range problems(t, out) {
		if pr.Kind != "unsafe_path" {
			t.Errorf("problem %+v", pr)
			continue
		}
		got[pr.SourceFile] = pr.Message
	}
	if len(got) != len(want) {
		t.Errorf("problems %q", got)
	}
	for f, m := range want {
		if got[f] != m {
			t.Errorf("%s: %q, want %q", f, got[f], m)
		}
	}
}

package surface

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"

	ps "github.com/doubleagent/doubleagent/analyzer/parsers/surface"
	"github.com/doubleagent/doubleagent/analyzer/report/reporttest"
)

// TestMarkdownKeepsEvidenceInert: surface.md of entries whose every field
// is hostile, rendered by goldmark (GFM, raw HTML kept), has no raw HTML,
// no link, image or autolink and no line that evidence started.
func TestMarkdownKeepsEvidenceInert(t *testing.T) {
	h := reporttest.Hostile("http://127.0.0.1:9/beacon.png")
	sum := &Summary{ByKind: map[string]int{}}
	for i, s := range h {
		p := func(k int) string { return h[(i+k)%len(h)] }
		for _, kind := range []string{ps.KindHook, "mcp_server", p(1)} {
			sum.Entries = append(sum.Entries, Entry{Host: s, User: p(1), BundleID: p(2), Verified: p(3), ATime: p(4), BTime: p(5),
				Item: ps.Item{Kind: kind, Agent: p(6), Scope: p(7), Project: p(8), Name: p(9), Event: p(10), Matcher: p(11), Type: p(12), Command: p(13),
					Args: []string{p(14), p(15)}, EnvKeys: []string{p(16)}, URL: p(17), HeaderKeys: []string{p(18)}, Desc: p(19), Content: p(20), File: p(21), SHA256: p(22), MTime: p(23)}})
			sum.ByKind[kind]++
		}
	}
	md := markdown(sum)
	for _, b := range reporttest.Check(md) {
		t.Error(b)
	}
}

// TestWriteRefusesPlantedLink: a link planted as surface.md is refused,
// never written through.
func TestWriteRefusesPlantedLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, analyze.TimelineJSONL), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, analyze.SurfaceMD)); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir); err == nil {
		t.Fatal("a link planted as surface.md was accepted")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("written through the link: %q", b)
	}
}

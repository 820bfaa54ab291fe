package merge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
)

// TestFanIn: a merge two or three files at a time (groups merged into
// intermediate files first) writes the bytes of a merge of all at once,
// with a shard whose rows of two hosts in one millisecond are not in
// host order (their nanoseconds decide in one run), undated rows, problems
// tied but for the host and a null agents array; its intermediate files
// are gone; and a shard's bad line is named by the shard's file, not an
// intermediate one.
func TestFanIn(t *testing.T) {
	const ms = "2026-01-01T00:00:00.002Z"
	prob := func(host string) string {
		return `{"host":"` + host + `","bundle_id":"","input":"","source_file":"/f","source_line":1,"agent":"a","parser":"","kind":"duplicate_id","message":"m"}` + "\n"
	}
	inv := func(host string) string {
		return `{"sources":[{"input":"/b/` + host + `","host":"` + host + `"}],"agents":null,"files":[],"parsers":[]}`
	}
	var shards []string
	// hz's shard also holds rows of ha-2 (a host of its run's second
	// input) in the same millisecond, after hz's.
	shards = append(shards, shardDir(t, "hz", map[string]string{
		analyze.TimelineJSONL: rowOf("2026-01-01T00:00:00.001Z", "hz") + rowOf(ms, "hz") + rowOf(ms, "ha-2") + rowOf(ms, "hz") + rowOf("", "hz"),
		analyze.ProblemsJSONL: prob("hz") + prob("ha-2"),
		analyze.InventoryJSON: inv("hz"),
	}))
	for _, h := range []string{"hm", "hb", "hy", "ha"} {
		shards = append(shards, shardDir(t, h, map[string]string{
			analyze.TimelineJSONL: rowOf(ms, h) + rowOf("2026-01-01T00:00:00.003Z", h) + rowOf("", h),
			analyze.ProblemsJSONL: prob(h),
			analyze.InventoryJSON: inv(h),
		}))
	}
	read := func(dir string) map[string]string {
		m := map[string]string{}
		for _, f := range []string{analyze.TimelineJSONL, analyze.SessionsJSONL, analyze.ProblemsJSONL, analyze.InventoryJSON, MergeJSON} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			m[f] = string(b)
		}
		return m
	}
	flat := filepath.Join(t.TempDir(), "m")
	if _, err := Run(Options{Shards: shards, OutDir: flat, NoFindings: true}); err != nil {
		t.Fatal(err)
	}
	want := read(flat)
	// The flat merge: hz's run of three rows at 002 (hz, ha-2, hz) stays
	// together, keyed by its first (hz), so after hy's.
	wantTL := rowOf("2026-01-01T00:00:00.001Z", "hz") + rowOf(ms, "ha") + rowOf(ms, "hb") + rowOf(ms, "hm") + rowOf(ms, "hy") +
		rowOf(ms, "hz") + rowOf(ms, "ha-2") + rowOf(ms, "hz") +
		rowOf("2026-01-01T00:00:00.003Z", "ha") + rowOf("2026-01-01T00:00:00.003Z", "hb") + rowOf("2026-01-01T00:00:00.003Z", "hm") + rowOf("2026-01-01T00:00:00.003Z", "hy") +
		rowOf("", "ha") + rowOf("", "hb") + rowOf("", "hm") + rowOf("", "hy") + rowOf("", "hz")
	if want[analyze.TimelineJSONL] != wantTL {
		t.Fatalf("flat merge:\n%s\nwant\n%s", want[analyze.TimelineJSONL], wantTL)
	}
	if !strings.Contains(want[analyze.InventoryJSON], `"agents": null`) {
		t.Fatalf("inventory: %s", want[analyze.InventoryJSON])
	}
	for _, fan := range []int{1, 2, 3} {
		d := filepath.Join(t.TempDir(), "m")
		sum, err := Run(Options{Shards: shards, OutDir: d, NoFindings: true, FanIn: fan})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Rows != 17 || sum.Undated != 5 || sum.Problems != 6 {
			t.Errorf("fan-in %d: %+v", fan, sum)
		}
		got := read(d)
		for f, w := range want {
			if got[f] != w {
				t.Errorf("fan-in %d: %s differs:\n%s\nwant\n%s", fan, f, got[f], w)
			}
		}
		ents, _ := os.ReadDir(d)
		if len(ents) != 6 {
			t.Errorf("fan-in %d: %d files left in the output folder, want 6", fan, len(ents))
		}
	}
	// A bad line in the last shard: named by its file.
	bad := shardDir(t, "hq", map[string]string{analyze.TimelineJSONL: rowOf(ms, "hq") + "{\n"})
	_, err := Run(Options{Shards: append(shards, bad), OutDir: filepath.Join(t.TempDir(), "m"), NoFindings: true, FanIn: 2})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(bad, analyze.TimelineJSONL)+" line 2") {
		t.Fatalf("a bad line: %v", err)
	}
}

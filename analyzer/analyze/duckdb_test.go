package analyze_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// duckDBNodeVersion is the npm package @duckdb/node-api the lake test
// runs (DuckDB 1.5.6).
const duckDBNodeVersion = "1.5.6-r.1"

// duckDBModules returns a node_modules folder holding @duckdb/node-api:
// $DOUBLEAGENT_DUCKDB_NODE, else one installed with npm into the user's
// cache folder (once). It skips the test, saying why, only when node or
// npm is missing or the install fails.
func duckDBModules(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("DuckDB lake test: node is not installed")
	}
	dir := os.Getenv("DOUBLEAGENT_DUCKDB_NODE")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("DuckDB lake test: no cache folder: %v", err)
		}
		dir = filepath.Join(cache, "doubleagent", "duckdb-node-"+duckDBNodeVersion)
	}
	mods := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(mods, "@duckdb", "node-api", "package.json")); err == nil {
		return mods
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("DuckDB lake test: npm is not installed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skipf("DuckDB lake test: %v", err)
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, "@duckdb/node-api@"+duckDBNodeVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("DuckDB lake test: npm install @duckdb/node-api@%s failed: %v\n%s", duckDBNodeVersion, err, out)
	}
	return mods
}

// duckDBQuery runs one SQL query in DuckDB (through node) and returns its
// rows as JSON objects.
func duckDBQuery(t *testing.T, mods, sql string) []map[string]any {
	t.Helper()
	const script = `const {DuckDBInstance} = require('@duckdb/node-api');
(async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const r = await c.runAndReadAll(process.argv[1]);
  process.stdout.write(JSON.stringify(r.getRowObjectsJson()));
})().catch(e => { console.error(String(e)); process.exit(1); });`
	cmd := exec.Command("node", "-e", script, sql)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s\n%s", err, stderr.String(), sql)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("duckdb output %q: %v", out, err)
	}
	return rows
}

// TestDuckDBFleetQuery loads the Hive partitions of a three-host case into
// DuckDB and answers the fleet question "which hosts ran an agent in
// bypass mode last week" (the week of 2026-11-23 to 2026-11-29): host-a
// did (Claude Code bypassPermissions) and host/b did (Codex
// danger-full-access, its name %-escaped in the path); host-c ran in
// bypass mode only three weeks before, in default mode that week, and in
// an undated row (day=undated, which makes day a text column: the query
// compares it with text, which works for a DATE column too). The
// partition columns case and day come from the paths.
func TestDuckDBFleetQuery(t *testing.T) {
	mods := duckDBModules(t)
	sys := func(ts, text, id string) testRow {
		return testRow{T: ts, Session: "S" + id, Type: "system", Text: text, ID: id}
	}
	a := makeCaseBundle(t, t.TempDir(), "a.tar.zst", "host-a", "IR-7", "id-a", []bundletest.File{primaryFile("alice", "A", rowsJSON(
		sys("2026-11-25T09:00:00Z", "permission mode: bypassPermissions", "a1"),
		testRow{T: "2026-11-25T09:00:01Z", Session: "Sa1", Type: "user", Text: "ship it", ID: "a2"}))})
	b := makeCaseBundle(t, t.TempDir(), "b.tar.zst", "host/b", "IR-7", "id-b", []bundletest.File{primaryFile("bob", "B", rowsJSON(
		sys("2026-11-29T23:59:59Z", "permission mode: approval=never sandbox=danger-full-access", "b1")))})
	c := makeCaseBundle(t, t.TempDir(), "c.tar.zst", "host-c", "IR-7", "id-c", []bundletest.File{primaryFile("carol", "C", rowsJSON(
		sys("2026-11-05T10:00:00Z", "permission mode: bypassPermissions", "c1"),
		sys("2026-11-24T10:00:00Z", "permission mode: default", "c2"),
		sys("2026-11-30T00:00:00Z", "permission mode: yolo", "c3"),
		sys("", "permission mode: bypassPermissions", "c4")))})
	// HOST-A after host-a: one folder on a case-insensitive file system,
	// so its letters are %-escaped in its path, which DuckDB decodes.
	d := makeCaseBundle(t, t.TempDir(), "d.tar.zst", "HOST-A", "IR-7", "id-d", []bundletest.File{primaryFile("dave", "D", rowsJSON(
		sys("2026-11-26T08:00:00Z", "permission mode: yolo", "d1")))})
	_, out := run(t, analyze.Options{Inputs: []string{a, b, c, d}, Parsers: testParsers(), Format: "parquet", PartitionByHost: true})
	glob := filepath.ToSlash(filepath.Join(out, analyze.TimelineParquet)) + "/*/*/*/*.parquet"
	q := `SELECT host, "case", min(timestamp_utc)::VARCHAR AS first_seen, count(*) AS n
FROM read_parquet('` + glob + `', hive_partitioning = true)
WHERE day BETWEEN '2026-11-23' AND '2026-11-29'
  AND turn_type = 'system'
  AND regexp_matches(text, '^permission mode: .*(bypassPermissions|danger-full-access|yolo)')
GROUP BY ALL ORDER BY host`
	got := duckDBQuery(t, mods, q)
	b1, _ := json.Marshal(got)
	want := `[{"case":"IR-7","first_seen":"2026-11-26 08:00:00+00","host":"HOST-A","n":"1"},{"case":"IR-7","first_seen":"2026-11-25 09:00:00+00","host":"host-a","n":"1"},{"case":"IR-7","first_seen":"2026-11-29 23:59:59+00","host":"host/b","n":"1"}]`
	if string(b1) != want {
		t.Errorf("fleet query:\n got %s\nwant %s", b1, want)
	}
	// Every row is in some partition, once.
	all := duckDBQuery(t, mods, `SELECT count(*) AS n, count(DISTINCT day) AS days, string_agg(DISTINCT "case", ',') AS cases FROM read_parquet('`+glob+`', hive_partitioning = true)`)
	if b2, _ := json.Marshal(all); !strings.Contains(string(b2), `"n":"8"`) || !strings.Contains(string(b2), `"days":"7"`) || !strings.Contains(string(b2), `"cases":"IR-7"`) {
		t.Errorf("all rows: %s", b2)
	}
}

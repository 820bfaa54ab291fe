package merge

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
)

// shardDir writes a shard folder holding files and a run.json that lists
// them with their hashes, as a finished run does.
func shardDir(t *testing.T, host string, files map[string]string) string {
	t.Helper()
	d := t.TempDir()
	rec := analyze.RunRecord{Tool: "doubleagent", ToolVersion: "t", SchemaVersion: "s", CommandLine: []string{}, Filters: map[string]any{},
		Formats: []string{"jsonl"}, Inputs: []analyze.InventorySource{{Input: "/b/" + host, Host: host}}, InputsGiven: []analyze.InputStatus{{Input: "/b/" + host, Kind: "bundle", Status: "read"}}}
	for _, name := range []string{analyze.TimelineJSONL, analyze.SessionsJSONL, analyze.ProblemsJSONL, analyze.InventoryJSON} {
		body, ok := files[name]
		if !ok {
			switch name {
			case analyze.InventoryJSON:
				body = `{"sources":[],"agents":null,"files":[],"parsers":[]}`
			default:
				body = ""
			}
		}
		if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256([]byte(body))
		rec.Outputs = append(rec.Outputs, analyze.RunOutput{File: name, Size: int64(len(body)), SHA256: hex.EncodeToString(h[:])})
	}
	b, _ := json.MarshalIndent(rec, "", "  ")
	if err := os.WriteFile(filepath.Join(d, analyze.RunJSON), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

func indent(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestInventoryLayout: inventory.json merged element by element is
// byte for byte json.MarshalIndent of the merged inventory, empty arrays,
// a null array, maps, escapes and nested objects included.
func TestInventoryLayout(t *testing.T) {
	a := analyze.Inventory{Sources: []analyze.InventorySource{{Input: "/b/2", Host: "h<2>", CollectorLog: &analyze.LogSummary{Lines: 2, Messages: []string{"warn: x \"y\""}}}},
		Files:   []analyze.InventoryFile{{Host: "h<2>", SourceFile: "/f", Skipped: map[string]int{"z": 1, "a": 2}}},
		Parsers: []analyze.InventoryParser{{ID: "p/x", Agent: "p", Version: 2}}}
	b := analyze.Inventory{Sources: []analyze.InventorySource{{Input: "/b/1", Host: "h1"}, {Input: "/b/3", Host: "h1", Unusable: "cut"}},
		Agents:  []analyze.InventoryAgent{{Host: "h1", Agent: "claude-code", Users: []string{}, Statuses: map[string]int{}, UserPresence: map[string]string{}}},
		Files:   []analyze.InventoryFile{},
		Parsers: []analyze.InventoryParser{{ID: "p/x", Agent: "p", Version: 2}}}
	sa := shardDir(t, "h<2>", map[string]string{analyze.InventoryJSON: indent(t, a)})
	sb := shardDir(t, "h1", map[string]string{analyze.InventoryJSON: indent(t, b)})
	out := filepath.Join(t.TempDir(), "m")
	if _, err := Run(Options{Shards: []string{sa, sb}, OutDir: out, NoFindings: true}); err != nil {
		t.Fatal(err)
	}
	want := analyze.Inventory{Sources: []analyze.InventorySource{b.Sources[0], a.Sources[0], b.Sources[1]}, Agents: b.Agents, Files: a.Files, Parsers: a.Parsers}
	got, _ := os.ReadFile(filepath.Join(out, analyze.InventoryJSON))
	if string(got) != indent(t, want) {
		t.Fatalf("merged inventory\n%s\nwant\n%s", got, indent(t, want))
	}
	// Both null: null; both empty: [].
	n1 := shardDir(t, "x", nil)
	n2 := shardDir(t, "y", nil)
	out2 := filepath.Join(t.TempDir(), "m")
	if _, err := Run(Options{Shards: []string{n1, n2}, OutDir: out2, NoFindings: true}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(out2, analyze.InventoryJSON))
	if want := "{\n  \"sources\": [],\n  \"agents\": null,\n  \"files\": [],\n  \"parsers\": []\n}\n"; string(got) != want {
		t.Fatalf("empty inventory %q, want %q", got, want)
	}
}

const row = `{"timestamp_utc":%q,"host":%q,"user":"u","agent":"a","session_id":"s","project_path":"","turn_type":"user","model":"","tool_name":"","tool_use_id":"","text":"t","tool_input":"","is_error":"","source_file":"/f","source_line":1,"bundle_id":"","parser":"p","secondary":"","time_basis":"recorded","record_id":"","parent_session_id":"","verified":"","action":""}` + "\n"

func rowOf(ts, host string) string {
	return strings.Replace(strings.Replace(row, "%q", `"`+ts+`"`, 1), "%q", `"`+host+`"`, 1)
}

// TestTimelineOrder: rows merge by time to the millisecond (undated
// last), then host; and problems tie by host. A shard whose rows go back
// in time, a cut last line, or a link where a file should be is refused.
func TestTimelineOrder(t *testing.T) {
	a := shardDir(t, "hb", map[string]string{
		analyze.TimelineJSONL: rowOf("2026-01-01T00:00:00.001Z", "hb") + rowOf("2026-01-01T00:00:00.002Z", "hb") + rowOf("", "hb"),
		analyze.ProblemsJSONL: `{"host":"hb","bundle_id":"","input":"","source_file":"/f","source_line":1,"agent":"a","parser":"","kind":"duplicate_id","message":"m"}` + "\n",
	})
	b := shardDir(t, "ha", map[string]string{
		analyze.TimelineJSONL: rowOf("2026-01-01T00:00:00.002Z", "ha") + rowOf("", "ha"),
		analyze.ProblemsJSONL: `{"host":"ha","bundle_id":"","input":"","source_file":"/f","source_line":1,"agent":"a","parser":"","kind":"duplicate_id","message":"m"}` + "\n",
	})
	out := filepath.Join(t.TempDir(), "m")
	sum, err := Run(Options{Shards: []string{a, b}, OutDir: out, NoFindings: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(out, analyze.TimelineJSONL))
	want := rowOf("2026-01-01T00:00:00.001Z", "hb") + rowOf("2026-01-01T00:00:00.002Z", "ha") + rowOf("2026-01-01T00:00:00.002Z", "hb") + rowOf("", "ha") + rowOf("", "hb")
	if string(got) != want || sum.Rows != 5 || sum.Undated != 2 || sum.Problems != 2 {
		t.Fatalf("merged %d rows (%d undated, %d problems):\n%s\nwant\n%s", sum.Rows, sum.Undated, sum.Problems, got, want)
	}
	p, _ := os.ReadFile(filepath.Join(out, analyze.ProblemsJSONL))
	if !strings.HasPrefix(string(p), `{"host":"ha"`) {
		t.Fatalf("problems tie not by host:\n%s", p)
	}
	for name, files := range map[string]map[string]string{
		"back in time": {analyze.TimelineJSONL: rowOf("2026-01-01T00:00:00.002Z", "hc") + rowOf("2026-01-01T00:00:00.001Z", "hc")},
		"cut":          {analyze.TimelineJSONL: strings.TrimSuffix(rowOf("2026-01-01T00:00:00.002Z", "hc"), "\n")},
		"not JSON":     {analyze.TimelineJSONL: "{\n"},
	} {
		c := shardDir(t, "hc", files)
		_, err := Run(Options{Shards: []string{a, c}, OutDir: filepath.Join(t.TempDir(), "m"), NoFindings: true})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(c, analyze.TimelineJSONL)+" line ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A link in place of a shard file is not followed.
	c := shardDir(t, "hc", nil)
	p2 := filepath.Join(c, analyze.SessionsJSONL)
	os.Remove(p2)
	os.Symlink(filepath.Join(a, analyze.SessionsJSONL), p2)
	if _, err := Run(Options{Shards: []string{a, c}, OutDir: filepath.Join(t.TempDir(), "m"), NoFindings: true}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a link: %v", err)
	}
}

// TestShardsRunAlike: shards another run would not have made together
// are refused before anything is written: one ran the rules and one did
// not, they ran other rules, other filters, another tool version; and a
// shard whose run.json lists no findings.jsonl though it ran the rules.
func TestShardsRunAlike(t *testing.T) {
	base := func(t *testing.T, host string, edit func(r *analyze.RunRecord)) string {
		d := shardDir(t, host, nil)
		p := filepath.Join(d, analyze.RunJSON)
		b, _ := os.ReadFile(p)
		var r analyze.RunRecord
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		edit(&r)
		os.WriteFile(p, []byte(indent(t, r)), 0o644)
		return d
	}
	plain := base(t, "h1", func(*analyze.RunRecord) {})
	for name, c := range map[string]struct {
		edit func(r *analyze.RunRecord)
		want string
	}{
		"rules":      {func(r *analyze.RunRecord) { r.Findings = &analyze.RunFindings{Rules: []string{"r1 builtin"}} }, "run.json lists no findings.jsonl"},
		"filters":    {func(r *analyze.RunRecord) { r.Filters = map[string]any{"agent": []any{"codex-cli"}} }, "were run with different filters"},
		"version":    {func(r *analyze.RunRecord) { r.ToolVersion = "u" }, "were run with different tool versions"},
		"schema":     {func(r *analyze.RunRecord) { r.SchemaVersion = "1-0-1" }, "were run with different schema versions"},
		"parsers":    {func(r *analyze.RunRecord) { r.Parsers = []analyze.RunParser{{ID: "p/x", Agent: "p", Version: 3}} }, "were run with different parsers"},
		"no jsonl":   {func(r *analyze.RunRecord) { r.Formats = []string{"parquet"} }, "the run wrote no timeline.jsonl"},
		"same input": {func(r *analyze.RunRecord) { r.Inputs[0].Input = "/b/h1" }, `input "/b/h1" is in two shards`},
		"control: its own host, input and bundle": {func(r *analyze.RunRecord) { r.Inputs[0].BundleID = "B" }, ""},
	} {
		other := base(t, "h2", c.edit)
		out := filepath.Join(t.TempDir(), "m")
		_, err := Run(Options{Shards: []string{plain, other}, OutDir: out, NoFindings: true})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%s: the refused merge made its folder", name)
		}
	}
	// Rules run by one shard only, and other rules: findings.jsonl listed.
	ruled := func(host string, rules ...string) string {
		d := base(t, host, func(r *analyze.RunRecord) {})
		os.WriteFile(filepath.Join(d, analyze.FindingsJSONL), nil, 0o644)
		h := sha256.Sum256(nil)
		p := filepath.Join(d, analyze.RunJSON)
		b, _ := os.ReadFile(p)
		var r analyze.RunRecord
		json.Unmarshal(b, &r)
		r.Findings = &analyze.RunFindings{Rules: rules}
		r.Outputs = append(r.Outputs, analyze.RunOutput{File: analyze.FindingsJSONL, SHA256: hex.EncodeToString(h[:])})
		os.WriteFile(p, []byte(indent(t, r)), 0o644)
		return d
	}
	a, b, c := ruled("h3", "r1 builtin"), ruled("h4", "r1 builtin", "r2 mine.yml"), ruled("h5", "r1 builtin")
	if _, err := Run(Options{Shards: []string{a, plain}, OutDir: filepath.Join(t.TempDir(), "m"), NoFindings: true}); err == nil || !strings.Contains(err.Error(), a+" ran the rules and "+plain+" did not") {
		t.Errorf("rules in one shard: %v", err)
	}
	if _, err := Run(Options{Shards: []string{a, b}, OutDir: filepath.Join(t.TempDir(), "m"), NoFindings: true}); err == nil || !strings.Contains(err.Error(), "were run with different rules") {
		t.Errorf("other rules: %v", err)
	}
	if _, err := Run(Options{Shards: []string{a, c}, OutDir: filepath.Join(t.TempDir(), "m"), NoFindings: true}); err != nil {
		t.Errorf("the same rules: %v", err)
	}
}

// TestShardGivenTwice: a shard folder given twice, by the same path (it
// was merged twice, every row written twice), another spelling of it or a
// link to it, is refused before the output folder is made.
func TestShardGivenTwice(t *testing.T) {
	d := shardDir(t, "h1", nil)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(d, link); err != nil {
		t.Fatal(err)
	}
	other := shardDir(t, "h2", nil)
	for _, dirs := range [][]string{{d, d}, {d, other, d}, {d, filepath.Join(d, "..", filepath.Base(d))}, {link, d}} {
		out := filepath.Join(t.TempDir(), "m")
		_, err := Run(Options{Shards: dirs, OutDir: out, NoFindings: true})
		want := "shard " + dirs[len(dirs)-1] + " is given twice (as " + dirs[0] + " and " + dirs[len(dirs)-1] + "): each shard is merged once"
		if err == nil || err.Error() != want {
			t.Errorf("%v: %v, want %q", dirs, err, want)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%v: the refused merge made its folder", dirs)
		}
	}
}

// TestOutputInsideShard: an output folder inside a shard (given by its
// path, through a link to the shard, or a level deeper) is refused before
// anything is written; one beside the shards is not.
func TestOutputInsideShard(t *testing.T) {
	d := shardDir(t, "h1", nil)
	other := shardDir(t, "h2", nil)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(d, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(d, "merged"), filepath.Join(link, "merged"), filepath.Join(d, "a", "b")} {
		_, err := Run(Options{Shards: []string{other, d}, OutDir: out, NoFindings: true})
		want := d + ": the output folder " + out + " is inside this shard: a shard's folder is evidence of its run and is never written to; use a folder outside every shard"
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", out, err, want)
		}
		if _, serr := os.Lstat(out); !os.IsNotExist(serr) {
			t.Errorf("%s: the refused merge made its folder", out)
		}
	}
	if _, err := Run(Options{Shards: []string{other, d}, OutDir: filepath.Join(filepath.Dir(d), "merged-beside"), NoFindings: true}); err != nil {
		t.Errorf("beside the shards: %v", err)
	}
}

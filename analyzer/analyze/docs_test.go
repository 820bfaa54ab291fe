package analyze_test

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestOutputDocMatchesTheCode: output.md's heading names the schema
// version, its row table lists every timeline field in order, its
// Parquet section's promise holds (the Parquet row has the same columns,
// in the same order), and it has the sections on run.json, Parquet and
// the bodyfile.
func TestOutputDocMatchesTheCode(t *testing.T) {
	b, err := os.ReadFile("../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if !strings.HasPrefix(doc, "# doubleagent output, schema "+timeline.SchemaVersion+"\n") {
		t.Errorf("output.md heading does not name schema %s", timeline.SchemaVersion)
	}
	tags := func(v any, key string) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := 0; i < rt.NumField(); i++ {
			out = append(out, strings.Split(rt.Field(i).Tag.Get(key), ",")[0])
		}
		return out
	}
	fields := tags(timeline.Row{}, "json")
	var documented []string
	re := regexp.MustCompile("(?m)^\\| ([0-9]+) \\| `([a-z_]+)` \\|")
	for i, m := range re.FindAllStringSubmatch(doc, -1) {
		if m[1] != strconv.Itoa(i+1) {
			t.Errorf("row table: field %s numbered %s, want %d", m[2], m[1], i+1)
		}
		documented = append(documented, m[2])
	}
	if strings.Join(documented, " ") != strings.Join(fields, " ") {
		t.Errorf("row table lists\n %v\nthe row has\n %v", documented, fields)
	}
	if p := tags(analyze.ParquetRow{}, "parquet"); strings.Join(p, " ") != strings.Join(fields, " ") {
		t.Errorf("Parquet columns %v, row fields %v", p, fields)
	}
	for _, h := range []string{"\n## run.json\n", "\n## timeline.parquet\n", "\n## collection.bodyfile\n", "| 23 | `action` |"} {
		if !strings.Contains(doc, h) {
			t.Errorf("output.md has no %q", strings.TrimSpace(h))
		}
	}
}

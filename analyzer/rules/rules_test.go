package rules

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.yaml.in/yaml/v3"

	"github.com/doubleagent/doubleagent/analyzer/sigma"
)

// Classes are the rule classes of issue 19; prompt-injection is built in.
var Classes = []string{"guard-rails", "secret-hunting", "exfiltration", "destruction", "persistence", "prompt-injection", "project-settings"}

var fileName = regexp.MustCompile(`^doubleagent_[a-z0-9_]{5,60}\.yml$`)

// TestRulesAreValidSigma parses every rule with the YAML library alone
// (as another Sigma backend would), checks the keys Sigma and this project
// require, and compiles it with analyzer/sigma.
func TestRulesAreValidSigma(t *testing.T) {
	names, err := fs.Glob(FS(), "*.yml")
	if err != nil || len(names) != 13 {
		t.Fatalf("rules: %v %v", names, err)
	}
	ids := map[string]string{}
	classes := map[string]int{}
	for _, n := range names {
		b, _ := fs.ReadFile(FS(), n)
		var m map[string]any
		if err := yaml.Unmarshal(b, &m); err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if !fileName.MatchString(n) {
			t.Errorf("%s: file name does not follow Sigma's convention", n)
		}
		for _, k := range []string{"title", "id", "status", "description", "logsource", "detection", "level", "falsepositives", "tags", "author", "date", "references"} {
			if v, ok := m[k]; !ok || v == nil || v == "" {
				t.Errorf("%s: %s missing", n, k)
			}
		}
		id, _ := m["id"].(string)
		if u, err := uuid.Parse(id); err != nil || u.Version() != 4 || u.String() != id {
			t.Errorf("%s: id %q is not a lower-case UUIDv4", n, id)
		}
		if prev, dup := ids[id]; dup {
			t.Errorf("%s: id %s also in %s", n, id, prev)
		}
		ids[id] = n
		if s, _ := m["status"].(string); s != "experimental" && s != "test" && s != "stable" {
			t.Errorf("%s: status %q", n, s)
		}
		ls, _ := m["logsource"].(map[string]any)
		if ls["product"] != "doubleagent" || ls["category"] != "timeline" {
			t.Errorf("%s: logsource %v", n, ls)
		}
		det, _ := m["detection"].(map[string]any)
		if c, _ := det["condition"].(string); c == "" {
			t.Errorf("%s: detection has no condition", n)
		}
		if fp, _ := m["falsepositives"].([]any); len(fp) == 0 {
			t.Errorf("%s: no false positives named", n)
		}
		d, _ := m["date"].(string)
		if tm, ok := m["date"].(time.Time); ok { // YAML reads an unquoted date as a timestamp
			d = tm.Format("2006-01-02")
		}
		if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(d) {
			t.Errorf("%s: date %q is not YYYY-MM-DD", n, d)
		}
		var class string
		tags, _ := m["tags"].([]any)
		for _, tg := range tags {
			s, _ := tg.(string)
			if !regexp.MustCompile(`^[a-z0-9_-]+\.[a-z0-9._-]+$`).MatchString(s) {
				t.Errorf("%s: tag %q", n, s)
			}
			if strings.HasPrefix(s, ClassTag) {
				class = strings.TrimPrefix(s, ClassTag)
			}
		}
		known := false
		for _, c := range Classes {
			known = known || c == class
		}
		if !known {
			t.Errorf("%s: class tag %q is not one of %v", n, class, Classes)
		}
		classes[class]++
		if _, err := sigma.Parse(b); err != nil {
			t.Errorf("%s: does not compile: %v", n, err)
		}
	}
	for _, c := range Classes {
		if classes[c] == 0 {
			t.Errorf("no rule of class %s", c)
		}
	}
	rs, err := Builtin()
	if err != nil || len(rs) != len(names) {
		t.Fatalf("Builtin: %d rules, %v", len(rs), err)
	}
}

func TestLoadRefusesOtherProducts(t *testing.T) {
	dir := t.TempDir()
	if _, err := parse([]byte("title: t\nid: 00000000-0000-4000-8000-000000000001\nlevel: low\nlogsource:\n  product: windows\ndetection:\n  s:\n    text: x\n  condition: s\n"), dir+"/x.yml"); err == nil || !strings.Contains(err.Error(), "not doubleagent") {
		t.Errorf("got %v", err)
	}
	r, err := parse([]byte("title: t\nid: 00000000-0000-4000-8000-000000000001\nlevel: low\nlogsource:\n  product: doubleagent\ndetection:\n  s:\n    text: x\n  condition: s\n"), "x.yml")
	if err != nil || r.Class != "custom" {
		t.Errorf("custom rule: %+v %v", r, err)
	}
}

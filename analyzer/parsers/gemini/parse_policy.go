package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// policyTables are the arrays of tables a policy file holds
// (policy/toml-loader.ts PolicyFileSchema): [[rule]] and [[safety_checker]].
var policyTables = []string{"rule", "safety_checker"}

// policyFields orders a rule's fields in its row, most telling first; any
// other field follows in name order.
var policyFields = []string{"toolName", "mcpName", "subagent", "commandPrefix", "commandRegex", "argsPattern",
	"decision", "priority", "modes", "interactive", "allowRedirection", "allow_redirection",
	"denyMessage", "deny_message", "toolAnnotations", "checker"}

// parsePolicy reads a policies/*.toml file: the rules a user or the agent
// wrote (an "Always allow" answer is saved to auto-saved.toml, policy/
// config.ts createPolicyUpdater) and the safety checkers, one "permission
// setting: policy <table>[<i>]: <field>=<value> ... (from <file>, file
// mtime)" row per entry, its line the entry's [[...]] header.
func parsePolicy(ctx context.Context, b []byte, s *settingsOut) error {
	var doc map[string]any
	if _, err := toml.Decode(string(b), &doc); err != nil {
		s.out.Problem(0, "not valid TOML: "+parser.JSONError(err))
		return nil
	}
	lines := strings.Split(string(b), "\n")
	for _, table := range policyTables {
		v, ok := doc[table]
		if !ok {
			continue
		}
		entries, ok := v.([]map[string]any)
		if !ok {
			s.out.Report(0, parser.KindSkippedRecord, table+" is not an array of tables: not read")
			continue
		}
		at := headerLines(lines, table)
		for i, e := range entries {
			if err := ctx.Err(); err != nil {
				return err
			}
			s.n = 0
			if i < len(at) {
				s.n = at[i]
			}
			s.emit("permission setting", fmt.Sprintf("policy %s[%d]", table, i), policyText(e), "")
		}
	}
	for _, k := range sortedKeys(doc) {
		if k != "rule" && k != "safety_checker" {
			s.out.Skip(0, "no_evidence:policy key "+k)
		}
	}
	return nil
}

// policyText renders an entry as "k=v k=v", strings as written (redacted),
// other values as JSON.
func policyText(e map[string]any) string {
	var parts []string
	done := map[string]bool{}
	add := func(k string) {
		if v, ok := e[k]; ok && !done[k] {
			done[k] = true
			parts = append(parts, k+"="+policyValue(v))
		}
	}
	for _, k := range policyFields {
		add(k)
	}
	for _, k := range sortedKeys(e) {
		add(k)
	}
	return strings.Join(parts, " ")
}

func policyValue(v any) string {
	switch x := v.(type) {
	case string:
		return parser.RedactSecrets(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return parser.RedactSecrets(string(b))
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

var tableHeaderRe = regexp.MustCompile(`^\s*\[\[\s*([A-Za-z0-9_"'.-]+?)\s*\]\]\s*(#.*)?$`)

// headerLines returns the 1-based lines of the [[table]] headers, in order.
func headerLines(lines []string, table string) []int64 {
	var out []int64
	for i, l := range lines {
		if m := tableHeaderRe.FindStringSubmatch(l); m != nil && strings.Trim(m[1], `"'`) == table {
			out = append(out, int64(i+1))
		}
	}
	return out
}

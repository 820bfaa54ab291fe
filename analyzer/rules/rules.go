// Package rules holds DoubleAgent's Sigma rules (analyzer/rules/*.yml,
// documented in analyzer/docs/rules.md), embedded in the binary. Each rule
// has logsource product doubleagent, names timeline fields, and carries a
// tag doubleagent.<class> naming its class (guard-rails, secret-hunting,
// exfiltration, destruction, persistence); the prompt-injection class is a
// built-in detector (analyzer/findings), not Sigma.
package rules

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/sigma"
)

//go:embed *.yml
var files embed.FS

// FS is the embedded rule files.
func FS() fs.FS { return files }

// Rule is a parsed rule with where it came from and its class.
type Rule struct {
	*sigma.Rule
	Source string // file name (embedded) or path (an examiner's rule)
	Class  string // from the doubleagent.<class> tag; "custom" when none
}

// ClassTag prefixes the tag that names a rule's class.
const ClassTag = "doubleagent."

// Builtin returns the embedded rules, sorted by file name.
func Builtin() ([]Rule, error) {
	names, err := fs.Glob(files, "*.yml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Rule
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		r, err := parse(b, n)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Load reads an examiner's rules: each path a .yml/.yaml file or a folder
// of them (not descended into).
func Load(paths []string) ([]Rule, error) {
	var out []Rule
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		files := []string{p}
		if fi.IsDir() {
			files = nil
			ents, err := os.ReadDir(p)
			if err != nil {
				return nil, err
			}
			for _, e := range ents {
				if ext := strings.ToLower(filepath.Ext(e.Name())); e.Type().IsRegular() && (ext == ".yml" || ext == ".yaml") {
					files = append(files, filepath.Join(p, e.Name()))
				}
			}
			sort.Strings(files)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			r, err := parse(b, f)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func parse(b []byte, src string) (Rule, error) {
	r, err := sigma.Parse(b)
	if err != nil {
		return Rule{}, fmt.Errorf("%s: %w", src, err)
	}
	if r.LogSource.Product != "doubleagent" {
		return Rule{}, fmt.Errorf("%s: logsource product is %q, not doubleagent", src, r.LogSource.Product)
	}
	class := "custom"
	for _, t := range r.Tags {
		if strings.HasPrefix(t, ClassTag) {
			class = strings.TrimPrefix(t, ClassTag)
		}
	}
	return Rule{Rule: r, Source: src, Class: class}, nil
}

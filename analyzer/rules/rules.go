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
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/sigma"
	"github.com/doubleagent/doubleagent/bundle"
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

// MaxRuleFileSize bounds one rule file (a Sigma rule is a few KB).
const MaxRuleFileSize = 4 << 20

// Loaded says how many rules (one a file) one --rules path gave.
type Loaded struct {
	Path  string
	Rules int
}

// Load reads the examiner's rule files under the evidence path rule, as
// for evidence: each PATH is a regular .yml file or a folder of them; a
// link, FIFO, socket or device, named or found in a folder with a .yml or
// .yaml name, is refused with an error naming it and never opened (a FIFO
// would block the run; a link is never followed), and so is a file over
// MaxRuleFileSize. Other names in a folder (README.md) are not rules and
// are left alone. loaded counts, per PATH, the rules read.
func Load(paths []string) (out []Rule, loaded []Loaded, err error) {
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, nil, err
		}
		files := []string{p}
		switch {
		case fi.IsDir():
			files = nil
			ents, err := os.ReadDir(p)
			if err != nil {
				return nil, nil, err
			}
			for _, e := range ents {
				ext := strings.ToLower(filepath.Ext(e.Name()))
				if ext != ".yml" && ext != ".yaml" {
					continue
				}
				fp := filepath.Join(p, e.Name())
				if !e.Type().IsRegular() {
					return nil, nil, fmt.Errorf("%s: %s, not a regular file: refused, never opened (the evidence rule applies to rule files too)", fp, kindOf(e.Type()))
				}
				files = append(files, fp)
			}
			sort.Strings(files)
		case !fi.Mode().IsRegular():
			return nil, nil, fmt.Errorf("%s: %s, not a regular file or a folder: refused, never opened (the evidence rule applies to rule files too)", p, kindOf(fi.Mode()))
		}
		l := Loaded{Path: p}
		for _, f := range files {
			b, err := readRegular(f)
			if err != nil {
				return nil, nil, err
			}
			r, err := parse(b, f)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, r)
			l.Rules++
		}
		loaded = append(loaded, l)
	}
	return out, loaded, nil
}

// kindOf names what stands at a path that is not a regular file.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// readRegular reads a rule file opened by the evidence rule (no link, no
// FIFO: bundle.OpenRegular), at most MaxRuleFileSize bytes.
func readRegular(p string) ([]byte, error) {
	f, err := bundle.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxRuleFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(b) > MaxRuleFileSize {
		return nil, fmt.Errorf("%s: over %d bytes, not a rule file: refused", p, MaxRuleFileSize)
	}
	return b, nil
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

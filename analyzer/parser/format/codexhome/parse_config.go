package codexhome

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// maxConfigBytes bounds the settings files read whole.
const maxConfigBytes = 4 << 20

func (fl flavor) parseConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := openContent(in)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	if strings.HasSuffix(in.Path, ".rules") {
		return fl.parseRules(ctx, in, rc, out)
	}
	data, err := io.ReadAll(io.LimitReader(rc, maxConfigBytes+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(data) > maxConfigBytes {
		out.Problem(0, "config.toml larger than 4 MiB: not read")
		return nil
	}
	var cfg map[string]any
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		out.Problem(0, "not valid TOML: "+parser.JSONError(err))
		return nil
	}
	file := fl.displayFile(in.Path)
	lines := strings.Split(string(data), "\n")
	emit := func(keyPath []string, value any, prefix string) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine = lineOf(lines, keyPath)
		e.Text = fmt.Sprintf("%s%s=%s (from %s, file mtime)", prefix, strings.Join(quoteKeys(keyPath), "."), renderValue(value), file)
		out.Event(e)
	}
	settings := func(base []string, tbl map[string]any) {
		for _, k := range sortedKeys(tbl) {
			switch k {
			case "approval_policy", "sandbox_mode", "approvals_reviewer":
				emit(append(append([]string{}, base...), k), tbl[k], "permission setting: ")
			case "sandbox_workspace_write":
				if sub, ok := tbl[k].(map[string]any); ok {
					for _, sk := range sortedKeys(sub) {
						emit(append(append([]string{}, base...), k, sk), sub[sk], "permission setting: ")
					}
				}
			}
		}
	}
	settings(nil, cfg)
	if projects, ok := cfg["projects"].(map[string]any); ok {
		for _, p := range sortedKeys(projects) {
			if pt, ok := projects[p].(map[string]any); ok {
				if v, ok := pt["trust_level"]; ok {
					emit([]string{"projects", p, "trust_level"}, v, "permission setting: ")
				}
			}
		}
	}
	if profiles, ok := cfg["profiles"].(map[string]any); ok {
		for _, p := range sortedKeys(profiles) {
			if pt, ok := profiles[p].(map[string]any); ok {
				settings([]string{"profiles", p}, pt)
			}
		}
	}
	if m, ok := cfg["model"].(string); ok && m != "" {
		e := parser.SettingEvent(&in.File)
		e.SourceLine = lineOf(lines, []string{"model"})
		e.Text = fmt.Sprintf("model setting: %s (from %s, file mtime)", m, file)
		out.Event(e)
	}
	return nil
}

// parseRules gives one row per rule line of an exec-policy .rules file
// (Starlark prefix_rule(...) calls); comments and blank lines are skipped.
func (fl flavor) parseRules(ctx context.Context, in *parser.Input, r io.Reader, out parser.Sink) error {
	file := fl.displayFile(in.Path)
	return parser.Lines(ctx, bufio.NewReader(r), out, func(n int64, line []byte) error {
		t := string(bytes.TrimSpace(line))
		if t == "" || strings.HasPrefix(t, "#") {
			return nil
		}
		e := parser.SettingEvent(&in.File)
		e.SourceLine = n
		e.Text = fmt.Sprintf("permission setting: rule=%s (from %s, file mtime)", t, file)
		out.Event(e)
		return nil
	})
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var bareKeyRe = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func quoteKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		if bareKeyRe.MatchString(k) {
			out[i] = k
		} else {
			q, _ := json.Marshal(k)
			out[i] = string(q)
		}
	}
	return out
}

func renderValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

var tomlHeaderRe = regexp.MustCompile(`^\s*\[\[?\s*([^\]]*?)\s*\]\]?\s*(#.*)?$`)

// lineOf finds the 1-based line where keyPath is set: the line of the last
// key inside the table named by the leading keys (or, for a dotted or
// inline-table assignment, the line of the first key); 0 when not found.
func lineOf(lines []string, keyPath []string) int64 {
	if len(keyPath) == 0 {
		return 0
	}
	for split := len(keyPath) - 1; split >= 0; split-- {
		table := strings.Join(quoteKeys(keyPath[:split]), ".")
		key := keyPath[split]
		cur := ""
		for i, l := range lines {
			if m := tomlHeaderRe.FindStringSubmatch(l); m != nil && !strings.Contains(l, "=") {
				cur = normalizeHeader(m[1])
				continue
			}
			if cur != table {
				continue
			}
			t := strings.TrimSpace(l)
			for _, k := range quoteKeys([]string{key}) {
				if strings.HasPrefix(t, k) {
					rest := strings.TrimSpace(t[len(k):])
					if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ".") {
						return int64(i + 1)
					}
				}
			}
		}
	}
	return 0
}

func normalizeHeader(h string) string {
	var parts []string
	for _, p := range splitDotted(h) {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') {
			p = p[1 : len(p)-1]
		}
		parts = append(parts, p)
	}
	return strings.Join(quoteKeys(parts), ".")
}

func splitDotted(s string) []string {
	var parts []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			cur.WriteByte(c)
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
			cur.WriteByte(c)
		case c == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, cur.String())
}

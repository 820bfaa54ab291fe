package opencode

import (
	"bytes"
	"context"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseConfig reads a global config file (opencode.json, opencode.jsonc,
// config.json; kilo.json(c) for Kilo): one "permission setting:
// <key>=<value> (from <file>, file mtime)" row per leaf of the permission
// object and of each agent.<name>.permission (and the older
// mode.<name>.permission), and "model setting: <model> (from <file>, file
// mtime)". No other key is read, so provider keys and MCP headers are
// never printed.
func parseConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 8<<20))
	if err != nil {
		return err
	}
	var cfg struct {
		Model      string                     `json:"model"`
		Permission json.RawMessage            `json:"permission"`
		Agent      map[string]json.RawMessage `json:"agent"`
		Mode       map[string]json.RawMessage `json:"mode"`
	}
	if err := json.Unmarshal(parser.StandardJSON(b), &cfg); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	file := baseName(in.Path)
	row := func(text string) {
		ev := timeline.Event{TurnType: timeline.System, Text: text + " (from " + file + ", file mtime)", SourceLine: 1}
		if in.MTime.IsZero() {
			ev.TimeBasis = timeline.TimeNone
		} else {
			ev.Time, ev.TimeBasis = in.MTime, timeline.TimeFileMTime
		}
		out.Event(ev)
	}
	for _, kv := range flattenPermission("", cfg.Permission) {
		row("permission setting: " + kv)
	}
	for _, group := range []struct {
		name string
		m    map[string]json.RawMessage
	}{{"agent", cfg.Agent}, {"mode", cfg.Mode}} {
		names := make([]string, 0, len(group.m))
		for n := range group.m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			var a struct {
				Permission json.RawMessage `json:"permission"`
			}
			if json.Unmarshal(group.m[n], &a) != nil {
				continue
			}
			for _, kv := range flattenPermission(group.name+"."+n+".", a.Permission) {
				row("permission setting: " + kv)
			}
		}
	}
	if cfg.Model != "" {
		row("model setting: " + cfg.Model)
	}
	return nil
}

// flattenPermission renders a permission config value as "key=value"
// leaves in file order: "edit=ask", "bash.git push=deny"; a bare string
// value is "permission=<value>" under prefix.
func flattenPermission(prefix string, raw json.RawMessage) []string {
	raw = trimRaw(raw)
	if len(raw) == 0 {
		return nil
	}
	if raw[0] != '{' {
		key := strings.TrimSuffix(prefix, ".")
		if key == "" {
			key = "permission"
		}
		return []string{key + "=" + parser.JSONText(raw)}
	}
	var out []string
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	for dec.More() {
		tk, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := tk.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		v = trimRaw(v)
		if len(v) > 0 && v[0] == '{' {
			out = append(out, flattenPermission(prefix+k+".", v)...)
			continue
		}
		out = append(out, prefix+k+"="+parser.JSONText(v))
	}
	return out
}

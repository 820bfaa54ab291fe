package clinetask

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func ReadAll(in *parser.Input) ([]byte, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, MaxSmall))
}

// settingRow writes "permission setting: <key>=<value> (from <file>, file
// mtime)" at the file's mtime.
func settingRow(in *parser.Input, out parser.Sink, key, value, project string) {
	settingRowAt(in, out, 0, key, value, project)
}

func settingRowAt(in *parser.Input, out parser.Sink, line int64, key, value, project string) {
	basis := timeline.TimeFileMTime
	if in.MTime.IsZero() {
		basis = timeline.TimeNone
	}
	out.Event(timeline.Event{Time: in.MTime, TimeBasis: basis, TurnType: timeline.System, ProjectPath: project,
		SourceLine: line, Text: fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, value, path.Base(Slash(in.Path)))})
}

// ParseSettingsKeys writes one permission setting row per leaf of a JSON
// settings object whose top-level key match selects (one row per array
// element). Values of secret-looking keys are never printed.
func ParseSettingsKeys(_ context.Context, in *parser.Input, out parser.Sink, match func(string) bool) error {
	b, err := ReadAll(in)
	if err != nil {
		return err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	SettingsFromObject(in, out, 0, top, match)
	return nil
}

// SettingsFromObject writes one permission setting row (SourceLine line)
// per leaf of the members of top whose key match selects, in key order:
// the reader of ParseSettingsKeys for an object already decoded (an
// extension's global-state row of a state.vscdb). It returns the number of
// rows written.
func SettingsFromObject(in *parser.Input, out parser.Sink, line int64, top map[string]json.RawMessage, match func(string) bool) int {
	keys := make([]string, 0, len(top))
	for k := range top {
		if match(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		flatten(k, top[k], func(key, value string) {
			n++
			settingRowAt(in, out, line, key, value, "")
		})
	}
	return n
}

// Flatten calls fn for each scalar leaf under key (object members sorted,
// array elements one by one; a secret-looking key's value is
// "[redacted]"), the walk behind every permission setting row.
func Flatten(key string, raw json.RawMessage, fn func(key, value string)) { flatten(key, raw, fn) }

// flatten calls fn for each scalar leaf under key (object members sorted,
// array elements one by one).
func flatten(key string, raw json.RawMessage, fn func(key, value string)) {
	if SecretKey(key[strings.LastIndex(key, ".")+1:]) {
		fn(key, "[redacted]")
		return
	}
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 {
		return
	}
	switch raw[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return
		}
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			flatten(key+"."+k, m[k], fn)
		}
	case '[':
		var a []json.RawMessage
		if json.Unmarshal(raw, &a) != nil {
			return
		}
		if len(a) == 0 {
			fn(key, "[]")
		}
		for _, v := range a {
			fn(key, parser.JSONText(v))
		}
	default:
		fn(key, parser.JSONText(raw))
	}
}

// ParseMCPSettings reads an MCP settings file ({"mcpServers": {name:
// {...}}}: Cline's cline_mcp_settings.json, Roo's mcp_settings.json and
// .roo/mcp.json): one permission setting row per tool of the server's
// allowKey list (autoApprove or alwaysAllow) and one for disabled.
func ParseMCPSettings(_ context.Context, in *parser.Input, out parser.Sink, allowKey string) error {
	b, err := ReadAll(in)
	if err != nil {
		return err
	}
	var f struct {
		Servers map[string]map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		out.Problem(0, "not an MCP settings object: "+parser.JSONError(err))
		return nil
	}
	names := make([]string, 0, len(f.Servers))
	for n := range f.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := f.Servers[n]
		for _, k := range []string{allowKey, "disabled", "disabledTools"} {
			if v, ok := s[k]; ok {
				flatten("mcpServers."+n+"."+k, v, func(key, value string) { settingRow(in, out, key, value, "") })
			}
		}
	}
	return nil
}

package zed

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"sort"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

const maxSettingsBytes = 4 << 20

// parseSettings reads settings.json / global_settings.json (JSON with
// comments and trailing commas) for the agent's standing permissions and
// default model: the "agent" object (the "assistant" object of older
// builds). Rows carry the file's mtime; secrets (api keys under
// language_models) are never read.
func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxSettingsBytes+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(data) > maxSettingsBytes {
		out.Problem(0, "larger than 4 MiB: not read")
		return nil
	}
	clean := parser.StandardJSON(data)
	if len(bytes.TrimSpace(clean)) == 0 {
		return nil
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(clean, &doc); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	lines := bytes.Split(data, []byte("\n"))
	emit := func(prefix, key, value string) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine = lineOf(lines, key, value)
		e.Text = fmt.Sprintf("%s %s=%s (from %s, file mtime)", prefix, key, value, file)
		out.Event(e)
	}
	for _, root := range []string{"agent", "assistant"} {
		var a struct {
			DefaultModel *struct {
				Provider string `json:"provider"`
				Model    string `json:"model"`
			} `json:"default_model"`
			AlwaysAllow     json.RawMessage `json:"always_allow_tool_actions"`
			DefaultProfile  string          `json:"default_profile"`
			ToolPermissions *struct {
				Default     json.RawMessage            `json:"default"`
				DefaultMode json.RawMessage            `json:"default_mode"`
				Tools       map[string]json.RawMessage `json:"tools"`
			} `json:"tool_permissions"`
		}
		raw, ok := doc[root]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			out.Problem(0, root+" is not an object: "+parser.JSONError(err))
			continue
		}
		if a.DefaultModel != nil && a.DefaultModel.Model != "" {
			m := a.DefaultModel.Model
			if a.DefaultModel.Provider != "" {
				m = a.DefaultModel.Provider + "/" + m
			}
			e := parser.SettingEvent(&in.File)
			e.SourceLine = lineOf(lines, "default_model", "")
			e.Model = m
			e.Text = fmt.Sprintf("model setting: %s (from %s, file mtime)", m, file)
			out.Event(e)
		}
		if v := scalar(a.AlwaysAllow); v != "" {
			emit("permission setting:", root+".always_allow_tool_actions", v)
		}
		if a.DefaultProfile != "" {
			emit("permission setting:", root+".default_profile", a.DefaultProfile)
		}
		if tp := a.ToolPermissions; tp != nil {
			base := root + ".tool_permissions"
			if v := scalar(tp.Default); v != "" {
				emit("permission setting:", base+".default", v)
			}
			if v := scalar(tp.DefaultMode); v != "" {
				emit("permission setting:", base+".default_mode", v)
			}
			tools := make([]string, 0, len(tp.Tools))
			for k := range tp.Tools {
				tools = append(tools, k)
			}
			sort.Strings(tools)
			for _, tool := range tools {
				toolRules(tp.Tools[tool], base+".tools."+tool, emit)
			}
		}
	}
	return nil
}

// toolRules: {default | default_mode, always_allow | always_deny |
// always_confirm: [{pattern}]}.
func toolRules(raw json.RawMessage, base string, emit func(prefix, key, value string)) {
	var t map[string]json.RawMessage
	if json.Unmarshal(raw, &t) != nil {
		return
	}
	for _, k := range []string{"default", "default_mode"} {
		if v := scalar(t[k]); v != "" {
			emit("permission setting:", base+"."+k, v)
		}
	}
	for _, k := range []string{"always_allow", "always_deny", "always_confirm"} {
		var rules []json.RawMessage
		if json.Unmarshal(t[k], &rules) != nil {
			continue
		}
		for _, r := range rules {
			var p struct {
				Pattern string `json:"pattern"`
			}
			v := scalar(r)
			if json.Unmarshal(r, &p) == nil && p.Pattern != "" {
				v = p.Pattern
			}
			if v != "" {
				emit("permission setting:", base+"."+k, v)
			}
		}
	}
}

// scalar renders a JSON string, bool or number; "" otherwise.
func scalar(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	switch raw[0] {
	case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(raw)
	}
	return ""
}

// lineOf finds the 1-based line holding the key (and the value, when
// given), or 0.
func lineOf(lines [][]byte, key, value string) int64 {
	last := key
	if i := bytes.LastIndexByte([]byte(key), '.'); i >= 0 {
		last = key[i+1:]
	}
	q := []byte(`"` + last + `"`)
	for i, l := range lines {
		if bytes.Contains(l, q) && (value == "" || bytes.Contains(l, []byte(value))) {
			return int64(i + 1)
		}
	}
	if value != "" {
		vq, _ := json.Marshal(value)
		for i, l := range lines {
			if bytes.Contains(l, vq) {
				return int64(i + 1)
			}
		}
	}
	return 0
}

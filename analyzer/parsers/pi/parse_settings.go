package pi

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// readJSON decodes a whole-file JSON document from the stream.
func readJSON(in *parser.Input, v any) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := json.NewDecoder(io.LimitReader(rc, 64<<20))
	dec.UseNumber()
	return dec.Decode(v)
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// parseSettings gives the one key of settings.json the seed names:
// defaultProjectTrust (ask, always or never).
func parseSettings(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc map[string]any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "settings.json: "+err.Error())
		return nil
	}
	v, ok := doc["defaultProjectTrust"]
	if !ok {
		out.Skip(0, "setting_not_read")
		return nil
	}
	e := parser.SettingEvent(&in.File)
	e.TurnType = timeline.System
	e.Text = fmt.Sprintf("permission setting: defaultProjectTrust=%s (from %s, file mtime)", scalar(v), in.Path)
	out.Event(e)
	return nil
}

// parseTrust gives one row per project of trust.json. The document is read
// as a map from project path to decision, either at the top level or under
// a "projects" or "trusted" key, or as a list of objects with a path.
func parseTrust(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "trust.json: "+err.Error())
		return nil
	}
	type pair struct{ path, val string }
	var pairs []pair
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range []string{"projects", "trusted", "trust", "decisions", "entries"} {
				if sub, ok := x[k]; ok && depth == 0 {
					walk(sub, depth+1)
					return
				}
			}
			for k, val := range x {
				if strings.HasPrefix(k, "/") || strings.Contains(k, ":\\") || strings.Contains(k, ":/") || strings.HasPrefix(k, "~") {
					pairs = append(pairs, pair{k, scalar(val)})
				}
			}
		case []any:
			for _, it := range x {
				m, ok := it.(map[string]any)
				if !ok {
					if s, ok := it.(string); ok {
						pairs = append(pairs, pair{s, "true"})
					}
					continue
				}
				p := ""
				for _, k := range []string{"path", "cwd", "project", "dir"} {
					if s, ok := m[k].(string); ok {
						p = s
						break
					}
				}
				if p == "" {
					out.Problem(0, "trust.json: an entry names no project path")
					continue
				}
				rest := map[string]any{}
				for k, v := range m {
					if v2, ok := v.(string); !ok || v2 != p {
						rest[k] = v
					}
				}
				val := scalar(rest)
				for _, k := range []string{"decision", "trust", "trusted", "value"} {
					if v, ok := m[k]; ok {
						val = scalar(v)
						break
					}
				}
				pairs = append(pairs, pair{p, val})
			}
		}
	}
	walk(doc, 0)
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].path < pairs[j].path })
	for i, p := range pairs {
		e := parser.SettingEvent(&in.File)
		e.TurnType, e.ProjectPath, e.SourceLine = timeline.System, p.path, int64(i+1)
		e.Text = fmt.Sprintf("permission setting: trust.%s=%s (from %s, file mtime)", p.path, p.val, in.Path)
		out.Event(e)
	}
	if len(pairs) == 0 {
		out.Problem(0, "trust.json: no project entries recognised")
	}
	return nil
}

// parseCrashes gives one "crash: <message>" row per recorded crash: an
// array (or an object with a "crashes" array) of objects with a time and a
// message or error.
func parseCrashes(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "crashes.json: "+err.Error())
		return nil
	}
	var list []any
	switch x := doc.(type) {
	case []any:
		list = x
	case map[string]any:
		if l, ok := x["crashes"].([]any); ok {
			list = l
		}
	}
	if len(list) == 0 {
		out.Skip(0, "no_evidence:no_crashes")
	}
	for i, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			out.Problem(int64(i+1), "crash entry is not an object")
			continue
		}
		var t time.Time
		for _, k := range []string{"timestamp", "time", "date", "at"} {
			switch v := m[k].(type) {
			case string:
				t, _ = parser.ParseTime(v)
			case json.Number:
				t, _ = msTime(v)
			}
			if !t.IsZero() {
				break
			}
		}
		msg := ""
		for _, k := range []string{"message", "error", "reason", "stack"} {
			if s, ok := m[k].(string); ok && s != "" {
				msg = s
				break
			}
			if em, ok := m[k].(map[string]any); ok {
				if s, ok := em["message"].(string); ok {
					msg = s
					break
				}
			}
		}
		if msg == "" {
			b, _ := json.Marshal(m)
			msg = string(b)
		}
		e := timeline.Event{Time: t, TurnType: timeline.System, Text: "crash: " + msg, SourceLine: int64(i + 1)}
		if t.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		for _, k := range []string{"sessionId", "session_id", "session"} {
			if s, ok := m[k].(string); ok {
				e.SessionID = s
			}
		}
		for _, k := range []string{"cwd", "projectPath"} {
			if s, ok := m[k].(string); ok {
				e.ProjectPath = s
			}
		}
		out.Event(e)
	}
	return nil
}

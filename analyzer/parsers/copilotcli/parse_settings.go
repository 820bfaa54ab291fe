package copilotcli

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// permissionKey matches settings.json keys that grant or limit what the
// agent may do (allowedUrls, deniedUrls, trusted_folders, permissions.*,
// allow/deny tool lists, sandbox and yolo switches).
var permissionKey = regexp.MustCompile(`(?i)(allow|deny|denied|trust|permission|approv|yolo|sandbox|exclu)`)

// secretKey matches key names whose values are never printed.
var secretKey = regexp.MustCompile(`(?i)(token|secret|password|passwd|api[_-]?key|apikey|credential|auth)`)

// parseSettings reads permissions-config.json (every stored approval, per
// location) and settings.json (the permission keys only), one "permission
// setting: <key>=<value> (from <file>, file mtime)" row per leaf or array
// element, at the file's modification time.
func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := readAllLimited(rc)
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Problem(0, "empty file")
		return nil
	}
	b = parser.StandardJSON(b)
	var root map[string]json.RawMessage
	if err := json.Unmarshal(b, &root); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	t, basis := fileTime(in)
	w := &settingsWalker{out: out, file: in.Path, t: t, basis: basis, all: base(in.Path) == "permissions-config.json"}
	for _, k := range sortedKeys(root) {
		w.walk(k, root[k], "", w.all || permissionKey.MatchString(k))
	}
	return ctx.Err()
}

type settingsWalker struct {
	out   parser.Sink
	file  string
	t     time.Time
	basis timeline.TimeBasis
	all   bool
	n     int64
}

func (w *settingsWalker) emit(key, value, project string) {
	w.n++
	w.out.Event(timeline.Event{Time: w.t, TimeBasis: w.basis, TurnType: timeline.System, ProjectPath: project,
		Text:       fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, value, w.file),
		SourceLine: w.n})
}

// walk reports key (a dotted path) when on is true: scalars as is, array
// elements one row each (objects compact), objects recursed. project is
// the location a permissions-config.json entry belongs to.
func (w *settingsWalker) walk(key string, raw json.RawMessage, project string, on bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return
	}
	last := key[strings.LastIndex(key, ".")+1:]
	if secretKey.MatchString(last) && !permissionKey.MatchString(last) {
		if on {
			w.emit(key, "[redacted]", project)
		}
		return
	}
	switch raw[0] {
	case '{':
		m := obj(raw)
		for _, k := range sortedKeys(m) {
			p := project
			if key == "locations" && w.all {
				p = k
			}
			w.walk(key+"."+k, m[k], p, on || permissionKey.MatchString(k))
		}
	case '[':
		if !on {
			return
		}
		var arr []json.RawMessage
		_ = json.Unmarshal(raw, &arr)
		if len(arr) == 0 {
			w.emit(key, "[]", project)
		}
		for _, a := range arr {
			w.emit(key+"[]", parser.JSONText(a), project)
		}
	default:
		if on {
			w.emit(key, parser.JSONText(raw), project)
		}
	}
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

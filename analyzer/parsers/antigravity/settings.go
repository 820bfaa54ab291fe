package antigravity

import (
	"context"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
)

// permKey selects the permission-bearing leaves of the standing permission
// files by their key path: allow and deny lists, access grants, trusted
// workspaces, sandbox and migration flags, auto-run and approval modes.
var permKey = regexp.MustCompile(`(?i)(allow|deny|denied|block|trust|sandbox|permission|approv|grant|access|migrat|yolo|auto_?run|auto-run|autoexec)|(^|[._])[a-z_]*(mode|policy)$`)

// parsePermissions reads the four standing permission files; each
// permission-bearing leaf is "permission setting: <key>=<value> (from
// <file>, file mtime)". Secret-looking keys print "[redacted]".
func parsePermissions(_ context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	dir := path.Base(path.Dir(p))
	switch {
	case in.Base() == "config.json" && dir == "config":
	case in.Base() == "settings.json" && dir == "antigravity-cli":
	case in.Base() == "sidecar.json" && path.Base(path.Dir(path.Dir(p))) == "sidecars":
	case dir == "projects" && path.Base(path.Dir(path.Dir(p))) == "config":
	default:
		return nil
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 8<<20))
	if err != nil {
		return err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(parser.StandardJSON(b), &top); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	file := parser.DisplayFile(&in.File)
	for _, k := range keys {
		clinetask.Flatten(k, top[k], func(key, value string) {
			if !permKey.MatchString(key) {
				return
			}
			e := parser.SettingEvent(&in.File)
			e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, parser.RedactSecrets(value), file)
			out.Event(e)
		})
	}
	return nil
}

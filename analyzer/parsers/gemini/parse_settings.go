package gemini

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxSettings bounds a settings file read whole (they are small).
const maxSettings = 16 << 20

// parseSettings reads .gemini/trustedFolders.json (one permission setting
// row per folder, project_path the folder) and .gemini/settings.json (the
// permission, sandbox and session retention keys), all at the file's
// modification time. Values of keys whose name looks like a secret are
// never printed.
func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxSettings))
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Problem(0, "empty file")
		return nil
	}
	b = parser.StandardJSON(b)
	t, basis := in.MTime.UTC(), timeline.TimeFileMTime
	if in.MTime.IsZero() {
		t, basis = time.Time{}, timeline.TimeNone
	}
	s := &settingsOut{out: out, file: in.Path, t: t, basis: basis}
	switch base(in.Path) {
	case "trustedFolders.json":
		err = walkObject(b, func(k string, v json.RawMessage) {
			s.n++
			s.emit("permission setting", "trustedFolders."+k, valueText("", v), k)
		})
	default:
		err = walkObject(b, func(k string, v json.RawMessage) { s.walk(k, v) })
	}
	if err != nil {
		out.Problem(0, "not a JSON object: "+err.Error())
	}
	return ctx.Err()
}

type settingsOut struct {
	out   parser.Sink
	file  string
	t     time.Time
	basis timeline.TimeBasis
	n     int64
}

func (s *settingsOut) emit(kind, key, value, project string) {
	s.out.Event(timeline.Event{Time: s.t, TimeBasis: s.basis, TurnType: timeline.System, ProjectPath: project,
		Text:       fmt.Sprintf("%s: %s=%s (from %s, file mtime)", kind, key, value, s.file),
		SourceLine: s.n})
}

// permissionKeys are the settings (dotted, current and pre-0.3 flat names)
// that grant, limit or sandbox what the agent may do; everything under
// them is reported. "*" matches one key (an MCP server name).
var permissionKeys = []string{
	"general.defaultApprovalMode",
	"tools.sandbox", "tools.sandboxAllowedPaths", "tools.sandboxNetworkAccess",
	"tools.core", "tools.allowed", "tools.confirmationRequired", "tools.exclude",
	"mcp.allowed", "mcp.excluded",
	"mcpServers.*.trust", "mcpServers.*.includeTools", "mcpServers.*.excludeTools",
	"security",
	"sandbox", "coreTools", "allowedTools", "excludeTools", "autoAccept",
	"folderTrust", "folderTrustFeature", "allowMCPServers", "excludeMCPServers",
	"approvalMode", "disableYoloMode",
}

var retentionKeys = []string{"general.sessionRetention", "sessionRetention"}

// matchKey reports whether key is pattern or lies under it; under is true
// when key is a proper prefix of pattern (keep descending).
func matchKey(key, pattern string) (match, under bool) {
	ks, ps := strings.Split(key, "."), strings.Split(pattern, ".")
	for i := 0; i < len(ks) && i < len(ps); i++ {
		if ps[i] != "*" && ps[i] != ks[i] {
			return false, false
		}
	}
	if len(ks) >= len(ps) {
		return true, false
	}
	return false, true
}

func classify(key string) (kind string, match, under bool) {
	for _, p := range retentionKeys {
		if m, u := matchKey(key, p); m {
			return "session retention", true, false
		} else if u {
			under = true
		}
	}
	for _, p := range permissionKeys {
		if m, u := matchKey(key, p); m {
			return "permission setting", true, false
		} else if u {
			under = true
		}
	}
	return "", false, under
}

// walk visits key=value (key dotted); a selected key gives one row per
// leaf (one per array element).
func (s *settingsOut) walk(key string, v json.RawMessage) {
	kind, match, under := classify(key)
	if !match {
		if under && isObject(v) {
			_ = walkObject(v, func(k string, c json.RawMessage) { s.walk(key+"."+k, c) })
		}
		return
	}
	s.leaves(kind, key, v)
}

func (s *settingsOut) leaves(kind, key string, v json.RawMessage) {
	switch {
	case secretKey.MatchString(lastSeg(key)):
		s.n++
		s.emit(kind, key, "[redacted]", "")
	case isObject(v):
		empty := true
		_ = walkObject(v, func(k string, c json.RawMessage) {
			empty = false
			s.leaves(kind, key+"."+k, c)
		})
		if empty {
			s.n++
			s.emit(kind, key, "{}", "")
		}
	case isArray(v):
		var arr []json.RawMessage
		_ = json.Unmarshal(v, &arr)
		if len(arr) == 0 {
			s.n++
			s.emit(kind, key, "[]", "")
		}
		for _, a := range arr {
			s.n++
			s.emit(kind, key, valueText(key, a), "")
		}
	default:
		s.n++
		s.emit(kind, key, valueText(key, v), "")
	}
}

var secretKey = regexp.MustCompile(`(?i)(api_?key|token|secret|password|passwd|credential|bearer|private_?key)`)

func lastSeg(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// valueText renders a value: a string as is, anything else as compact JSON.
func valueText(key string, v json.RawMessage) string {
	if secretKey.MatchString(lastSeg(key)) {
		return "[redacted]"
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return parser.CompactJSON(v)
}

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
	"github.com/doubleagent/doubleagent/catalog"
)

// maxSettings bounds a settings file read whole (they are small).
const maxSettings = 16 << 20

// parseSettings reads the standing permission files of ~/.gemini and of a
// project's .gemini directory (catalog target "project"), all at the
// file's modification time: trustedFolders.json (one row per folder,
// project_path the folder), settings.json (the permission, sandbox and
// session retention keys), policies/*.toml (one row per policy rule and
// safety checker), trusted_hooks.json (one row per trusted hook of a
// project) and acknowledgments/agents.json (one row per acknowledged
// project agent). Values of keys whose name looks like a secret, and
// credential-shaped text in any value, are never printed.
func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	kind, project := settingsKind(p, in.Target)
	if kind == "" {
		out.Skip(0, "no_evidence:not a Gemini CLI settings or policy file")
		return nil
	}
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
	t, basis := in.MTime.UTC(), timeline.TimeFileMTime
	if in.MTime.IsZero() {
		t, basis = time.Time{}, timeline.TimeNone
	}
	s := &settingsOut{out: out, file: in.Path, t: t, basis: basis, project: project}
	if kind == "policy" {
		return parsePolicy(ctx, b, s)
	}
	b = parser.StandardJSON(b)
	switch kind {
	case "trustedFolders":
		err = parser.ObjectMembers(b, func(k string, v json.RawMessage) {
			s.n++
			s.emit("permission setting", "trustedFolders."+k, valueText("", v), k)
		})
	case "trusted_hooks":
		// {<project path>: ["<hook name>:<command>", ...]} (hooks/trustedHooks.ts)
		err = parser.ObjectMembers(b, func(proj string, v json.RawMessage) {
			var keys []json.RawMessage
			if json.Unmarshal(v, &keys) != nil || len(keys) == 0 {
				s.n++
				s.emit("permission setting", "trusted_hooks."+proj, valueText("", v), proj)
				return
			}
			for _, k := range keys {
				s.n++
				s.emit("permission setting", "trusted_hooks."+proj, valueText("", k), proj)
			}
		})
	case "acknowledged_agents":
		// {<project path>: {<agent name>: <definition hash>}} (agents/acknowledgedAgents.ts)
		err = parser.ObjectMembers(b, func(proj string, v json.RawMessage) {
			if !isObject(v) {
				s.n++
				s.emit("permission setting", "acknowledgments.agents."+proj, valueText("", v), proj)
				return
			}
			_ = parser.ObjectMembers(v, func(agent string, h json.RawMessage) {
				s.n++
				s.emit("permission setting", "acknowledgments.agents."+proj+"."+agent, valueText("", h), proj)
			})
		})
	default:
		err = parser.ObjectMembers(b, func(k string, v json.RawMessage) { s.walk(k, v) })
	}
	if err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
	}
	return ctx.Err()
}

// settingsKind names what a collected path is and, for a project's own
// file, the project: <dir>/.gemini/settings.json and policies/*.toml in the
// home (target settings) or a project (target project); trustedFolders.json,
// trusted_hooks.json and acknowledgments/agents.json in the home only. ""
// for anything else (a command's TOML, an extension's settings).
func settingsKind(p, target string) (kind, project string) {
	i := strings.LastIndex(p, "/.gemini/")
	if i < 0 {
		return "", ""
	}
	rest := p[i+len("/.gemini/"):]
	if target == catalog.ProjectTarget {
		project = p[:i]
	}
	switch {
	case rest == "settings.json":
		return "settings", project
	case strings.HasPrefix(rest, "policies/") && strings.HasSuffix(rest, ".toml") && !strings.Contains(rest[len("policies/"):], "/"):
		return "policy", project
	case target == catalog.ProjectTarget:
		return "", ""
	case rest == "trustedFolders.json":
		return "trustedFolders", ""
	case rest == "trusted_hooks.json":
		return "trusted_hooks", ""
	case rest == "acknowledgments/agents.json":
		return "acknowledged_agents", ""
	}
	return "", ""
}

type settingsOut struct {
	out     parser.Sink
	file    string
	t       time.Time
	basis   timeline.TimeBasis
	n       int64
	project string // a project's own file: every row's project
}

func (s *settingsOut) emit(kind, key, value, project string) {
	if project == "" {
		project = s.project
	}
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
			_ = parser.ObjectMembers(v, func(k string, c json.RawMessage) { s.walk(key+"."+k, c) })
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
		_ = parser.ObjectMembers(v, func(k string, c json.RawMessage) {
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
		return parser.RedactSecrets(s)
	}
	return parser.RedactSecrets(parser.CompactJSON(v))
}

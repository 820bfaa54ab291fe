package claudecode

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Settings returns the parser of settings.json, settings.local.json and
// .claude.json: standing permission settings only.
func Settings() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/settings",
		Actions: Actions,
		Agent:   Agent,
		Version: 5,
		// "project": a project's .claude/settings.json and
		// settings.local.json, collected as project artifacts.
		Targets: []string{"settings", "claude-json", "project"},
		Names:   []string{"settings.json", "settings.local.json", ".claude.json", ".claude.json.backup*"},
		Doc:     "Claude Code permission settings from settings.json, settings.local.json (the user's and a project's) and .claude.json, with .claude.json's Remote Control and cloud rows (rows at the file mtime)",
	}, parseSettings)
}

// settingsFile holds the only keys read from settings.json; every other key
// (env, hooks, apiKeyHelper, ...) is never decoded.
type settingsFile struct {
	Permissions *struct {
		Allow                        []json.RawMessage `json:"allow"`
		Deny                         []json.RawMessage `json:"deny"`
		Ask                          []json.RawMessage `json:"ask"`
		AdditionalDirectories        []json.RawMessage `json:"additionalDirectories"`
		DefaultMode                  json.RawMessage   `json:"defaultMode"`
		DisableBypassPermissionsMode json.RawMessage   `json:"disableBypassPermissionsMode"`
	} `json:"permissions"`
	CleanupPeriodDays json.RawMessage `json:"cleanupPeriodDays"`
	Model             json.RawMessage `json:"model"`
	// MCP servers of a project's .mcp.json started without asking.
	EnableAllProjectMcpServers json.RawMessage   `json:"enableAllProjectMcpServers"`
	EnabledMcpjsonServers      []json.RawMessage `json:"enabledMcpjsonServers"`
}

// claudeJSON holds the only keys read from .claude.json; the account,
// tokens and caches are never decoded, and the Remote Control machine id
// is read only to say it is set.
type claudeJSON struct {
	Projects map[string]struct {
		AllowedTools                        []json.RawMessage `json:"allowedTools"`
		IgnorePatterns                      []json.RawMessage `json:"ignorePatterns"`
		HasTrustDialogAccepted              json.RawMessage   `json:"hasTrustDialogAccepted"`
		HasClaudeMdExternalIncludesApproved json.RawMessage   `json:"hasClaudeMdExternalIncludesApproved"`
		RemoteControlSpawnMode              string            `json:"remoteControlSpawnMode"`
	} `json:"projects"`
	RemoteControlMachineID json.RawMessage `json:"remoteControlMachineId"`
	HasRemoteEnvironment   json.RawMessage `json:"hasRemoteEnvironment"`
	GithubWebConnection    *struct {
		Status string `json:"status"`
	} `json:"githubWebConnectionStatusCache"`
}

func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	base := in.Base()
	fileName := base
	if strings.HasPrefix(base, ".claude.json") {
		fileName = ".claude.json"
	}
	emit := func(project, text string) {
		e := timeline.Event{Time: in.MTime, TimeBasis: timeline.TimeFileMTime,
			ProjectPath: project, TurnType: timeline.System, Text: text}
		if in.MTime.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	setting := func(project, key, value string) {
		emit(project, "permission setting: "+key+"="+value+" (from "+fileName+", file mtime)")
	}
	dec := json.NewDecoder(rc)
	if strings.HasPrefix(base, ".claude.json") {
		var c claudeJSON
		if err := dec.Decode(&c); err != nil {
			out.Problem(0, parser.NotJSON("", err))
			return nil
		}
		if msg := parser.DataAfterJSON(dec.Buffered(), rc, dec.InputOffset()); msg != "" {
			out.Problem(0, msg)
		}
		if v := parser.JSONText(c.RemoteControlMachineID); v != "" && v != "null" {
			emit("", "remote control: machine id set (from .claude.json, file mtime)")
		}
		if v := parser.JSONText(c.HasRemoteEnvironment); v != "" {
			emit("", "cloud: hasRemoteEnvironment="+v+" (from .claude.json, file mtime)")
		}
		if g := c.GithubWebConnection; g != nil && g.Status != "" {
			emit("", "source host: github status="+g.Status+" (from .claude.json, file mtime)")
		}
		paths := make([]string, 0, len(c.Projects))
		for p := range c.Projects {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			if err := ctx.Err(); err != nil {
				return err
			}
			pr := c.Projects[p]
			for _, v := range pr.AllowedTools {
				setting(p, "allowedTools", parser.JSONText(v))
			}
			// Before 1.0.7 a project's files Claude must not read were
			// ignorePatterns here (1.0.7 moved them to deny rules in
			// settings.local.json).
			for _, v := range pr.IgnorePatterns {
				setting(p, "ignorePatterns", parser.JSONText(v))
			}
			if v := parser.JSONText(pr.HasTrustDialogAccepted); v != "" {
				setting(p, "hasTrustDialogAccepted", v)
			}
			if v := parser.JSONText(pr.HasClaudeMdExternalIncludesApproved); v != "" {
				setting(p, "hasClaudeMdExternalIncludesApproved", v)
			}
			if m := pr.RemoteControlSpawnMode; m != "" {
				emit(p, "remote control: spawn mode "+m+" for "+p+" (from .claude.json, file mtime)")
			}
		}
		return nil
	}

	if in.Target == "project" && baseOf(dirOf(strings.ReplaceAll(in.Path, `\`, "/"))) != ".claude" {
		// A settings.json elsewhere in a project's .claude/ tree (a
		// plugin's, a skill's) is not Claude Code's settings file.
		out.Skip(0, "no_evidence:not a .claude/ settings file")
		return nil
	}
	var s settingsFile
	if err := dec.Decode(&s); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	if msg := parser.DataAfterJSON(dec.Buffered(), rc, dec.InputOffset()); msg != "" {
		out.Problem(0, msg)
	}
	project := settingsProject(in)
	if pm := s.Permissions; pm != nil {
		for _, kv := range []struct {
			key  string
			vals []json.RawMessage
		}{{"allow", pm.Allow}, {"deny", pm.Deny}, {"ask", pm.Ask}, {"additionalDirectories", pm.AdditionalDirectories}} {
			for _, v := range kv.vals {
				setting(project, kv.key, parser.JSONText(v))
			}
		}
		if v := parser.JSONText(pm.DefaultMode); v != "" {
			setting(project, "defaultMode", v)
		}
		if v := parser.JSONText(pm.DisableBypassPermissionsMode); v != "" {
			setting(project, "disableBypassPermissionsMode", v)
		}
	}
	if v := parser.JSONText(s.EnableAllProjectMcpServers); v != "" {
		setting(project, "enableAllProjectMcpServers", v)
	}
	for _, v := range s.EnabledMcpjsonServers {
		setting(project, "enabledMcpjsonServers", parser.JSONText(v))
	}
	if v := parser.JSONText(s.CleanupPeriodDays); v != "" {
		emit(project, "retention setting: cleanupPeriodDays="+v+" (from "+fileName+", file mtime)")
	}
	if v := parser.JSONText(s.Model); v != "" {
		emit(project, "model setting: "+v+" (from "+fileName+", file mtime)")
	}
	return nil
}

// settingsProject returns the project a project's .claude/settings*.json
// belongs to, or "" for the user's own settings under the home.
func settingsProject(in *parser.Input) string {
	rel := strings.ReplaceAll(in.Rel, `\`, "/")
	if in.Target == "project" {
		rel = "project" // collected as a project artifact: the path names the project
	}
	if rel == "" || strings.HasPrefix(rel, ".claude/") || strings.HasPrefix(rel, ".claude-") {
		return "" // the user's settings (or no Rel to tell)
	}
	p := strings.ReplaceAll(in.Path, `\`, "/")
	if i := strings.LastIndex(p, "/.claude/"); i > 0 {
		return p[:i]
	}
	return ""
}

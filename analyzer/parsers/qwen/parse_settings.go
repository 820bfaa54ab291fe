package qwen

// Nothing shared with gemini's settings parser but parser helpers: Qwen's
// settings.json names its own permission keys (permissions.allow/ask/deny,
// tools.approvalMode).

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseSettings reads .qwen/trustedFolders.json (one permission setting row
// per folder, project_path the folder) and a home or project
// .qwen/settings.json (one row per permissions.allow, ask and deny rule and
// for tools.approvalMode, plus the older tools.core/allowed/exclude lists),
// all at the file's modification time. Only these named keys are read, so
// no secret value (security.auth, env, mcpServers) reaches a row.
func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Problem(0, "empty file")
		return nil
	}
	b = parser.StandardJSON(b)
	t, basis := mtime(in)
	s := &settingsRows{out: out, file: in.Path, t: t, basis: basis}
	switch base(in.Path) {
	case "trustedFolders.json":
		err = parser.ObjectMembers(b, func(k string, v json.RawMessage) {
			s.row("trustedFolders."+k, parser.JSONText(v), k)
		})
	default:
		project := ""
		if in.Target == "project" {
			// <project>/.qwen/settings.json
			project = strings.TrimSuffix(qwenDir(in.Path), "/.qwen")
		}
		err = parser.ObjectMembers(b, func(k string, v json.RawMessage) {
			switch k {
			case "permissions":
				_ = parser.ObjectMembers(v, func(rk string, rv json.RawMessage) {
					if rk == "allow" || rk == "ask" || rk == "deny" {
						s.list("permissions."+rk, rv, project)
					}
				})
			case "tools":
				_ = parser.ObjectMembers(v, func(tk string, tv json.RawMessage) {
					switch tk {
					case "approvalMode":
						s.row("tools.approvalMode", parser.JSONText(tv), project)
					case "core", "allowed", "exclude":
						s.list("tools."+tk, tv, project)
					}
				})
			}
		})
	}
	if err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
	}
	return ctx.Err()
}

type settingsRows struct {
	out   parser.Sink
	file  string
	t     time.Time
	basis timeline.TimeBasis
	n     int64
}

func (s *settingsRows) row(key, value, project string) {
	s.n++
	s.out.Event(timeline.Event{Time: s.t, TimeBasis: s.basis, TurnType: timeline.System, ProjectPath: project,
		Text:       fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, value, s.file),
		SourceLine: s.n})
}

// list gives one row per array element ([] for an empty list).
func (s *settingsRows) list(key string, v json.RawMessage, project string) {
	var arr []json.RawMessage
	if json.Unmarshal(v, &arr) != nil {
		s.row(key, parser.JSONText(v), project)
		return
	}
	if len(arr) == 0 {
		s.row(key, "[]", project)
	}
	for _, a := range arr {
		s.row(key, parser.JSONText(a), project)
	}
}

package copilotcli

import (
	"io"
	"path"
	"sort"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of GitHub Copilot CLI.
const Agent = "copilot-cli"

// Parsers returns the Copilot CLI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "copilot-cli/events", Agent: Agent, Version: 6,
			Actions: Actions,
			Targets: []string{"events"}, Names: []string{"events.jsonl"},
			Doc: "session-state/<id>/events.jsonl event log: prompts, replies, reasoning, tool calls and results, permission requests and decisions, model switches, hooks, subagents in their own sessions, session info (unknown types kept as system rows)",
		}, parseEvents),
		&legacyParser{parser.New(parser.Spec{
			ID: "copilot-cli/legacy-session", Agent: Agent, Version: 1,
			Actions: Actions,
			Targets: []string{"events"}, Names: []string{"*.jsonl"},
			Doc: "legacy flat session-state/<id>.jsonl transcripts of pre-1.0 builds (the events.jsonl vocabulary; project path from the events or sidebar-sessions-state)",
		}, parseEvents)},
		HistorySession(),
		parser.New(parser.Spec{
			ID: "copilot-cli/sidebar", Agent: Agent, Version: 1,
			Actions: Actions,
			Targets: []string{"sidebar"}, Names: []string{"*.json"},
			Doc: "sidebar-sessions-state/<sha256 of cwd>.json: the project-path join for the sessions it lists (no rows)",
		}, parseSidebar),
		parser.New(parser.Spec{
			ID: "copilot-cli/workspace", Agent: Agent, Version: 3,
			Actions: Actions,
			Targets: []string{"workspace"}, Names: []string{"workspace.yaml"},
			Doc: "session-state/<id>/workspace.yaml session metadata (name, cwd, client_name) and the remote sync keys (session synced:, file mtime)",
		}, parseWorkspace),
		parser.New(parser.Spec{
			ID: "copilot-cli/settings", Agent: Agent, Version: 3,
			Actions: Actions,
			Targets: []string{"settings"}, Names: []string{"permissions-config.json", "settings.json"},
			Doc: "permissions-config.json tool approvals per location and settings.json allowedUrls/deniedUrls/trusted folders/permissions keys (permission setting:, file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "copilot-cli/process-log", Agent: Agent, Version: 3,
			Actions: Actions,
			Targets: []string{"logs"}, Names: []string{"process-*.log"},
			Doc: "logs/process-*.log sign-in lines",
		}, parseProcessLog),
		parser.New(parser.Spec{
			ID: "copilot-cli/session-store", Agent: Agent, Version: 5,
			Actions: Actions,
			Secondary: &parser.Secondary{Window: time.Hour, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.System},
				Basis: "one-hour window: a turn is stamped when it ends (seed)"},
			Targets: []string{"session-store"}, Names: []string{"session-store.db"},
			Doc: "session-store.db sessions, turns, session_files, session_refs, checkpoints, forge_trajectory_events (secondary)",
		}, parseSessionStore),
		parser.New(parser.Spec{
			ID: "copilot-cli/rewind-index", Agent: Agent, Version: 3,
			Actions: Actions,
			Secondary: &parser.Secondary{Window: time.Hour, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "one-hour window: a turn is stamped when it ends (seed)"},
			Targets: []string{"rewind-index"}, Names: []string{"index.json"},
			Doc: "session-state/<id>/rewind-file-snapshots/index.json per-turn prompt and changed files (secondary)",
		}, parseRewindIndex),
		parser.New(parser.Spec{
			ID: "copilot-cli/command-history", Agent: Agent, Version: 3,
			Actions: Actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "command-history-state.json records no time, session or cwd (seed)"},
			Targets: []string{"command-history"}, Names: []string{"command-history-state.json"},
			Doc: "command-history-state.json prompt history with no time, session or cwd (secondary)",
		}, parseCommandHistory),
	}
}

// legacyParser matches only the flat session-state/<id>.jsonl files, not
// the .jsonl files inside a session directory.
type legacyParser struct{ parser.Parser }

func (p *legacyParser) Match(f *parser.File) bool {
	if !p.Parser.Match(f) {
		return false
	}
	_, ok := legacySession(f.Path)
	return ok
}

// Spec returns the wrapped parser's spec (for the generated parser list).
func (p *legacyParser) Spec() parser.Spec { return p.Parser.(parser.Specced).Spec() }

// maxSmall bounds a small related or whole-file read (workspace.yaml,
// settings, indexes).
const maxSmall = 16 << 20

// parseTime reads an ISO 8601 time (the runtime writes toISOString()).
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// sessionDir returns the session id and the session-state/<id> directory
// of a file under session-state/<id>/..., or "" when the path has another
// shape.
func sessionDir(p string) (id, dir string) {
	i := strings.LastIndex(p, "/session-state/")
	if i < 0 {
		return "", ""
	}
	rest := p[i+len("/session-state/"):]
	j := strings.IndexByte(rest, '/')
	if j <= 0 {
		return "", ""
	}
	return rest[:j], p[:i+len("/session-state/")+j]
}

func readAllLimited(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, maxSmall))
}

// obj decodes a JSON object into a map of raw members (nil if not an object).
func obj(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// kv renders the scalar members of m named in keys as "k=v" pairs (keys
// in the given order, absent or empty ones skipped).
func kv(m map[string]json.RawMessage, keys ...string) string {
	var parts []string
	for _, k := range keys {
		v := parser.JSONText(m[k])
		if v == "" {
			continue
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

// scalarsKV renders every member of m as k=v in key order, values compact.
func scalarsKV(m map[string]json.RawMessage) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return kv(m, keys...)
}

// base is path.Base for '/' separated original paths.
func base(p string) string { return path.Base(p) }

// toolText picks a tool call's most identifying argument: the shell
// command, the file path, the URL, the pattern or query.
func toolText(args map[string]json.RawMessage) string {
	for _, k := range []string{"command", "cmd", "fullCommandText", "pattern", "query", "glob", "url", "path", "file_path", "filePath", "filename", "prompt", "description", "intent", "title", "name"} {
		if s := parser.JSONText(args[k]); s != "" {
			return s
		}
	}
	return ""
}

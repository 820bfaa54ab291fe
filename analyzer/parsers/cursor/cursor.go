package cursor

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Cursor.
const Agent = "cursor"

// Parsers returns the Cursor parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "cursor/state-db", Agent: Agent, Version: 2,
			Actions: actions,
			Secondary: &parser.Secondary{Window: time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse},
				Basis: "one-minute window: agent transcripts stamp user lines to the minute (seed)"},
			Targets: []string{"state-db"},
			Names:   []string{"state.vscdb"},
			Doc:     "Cursor global state.vscdb: composers and bubbles (prompts, replies, thinking, tool calls and results, permission decisions, models), composerHeaders (deleted conversations, recovered from the agent transcripts), settings blob (run modes, allow and deny lists, models last used)",
		}, parseStateDB),
		parser.New(parser.Spec{
			ID: "cursor/transcript", Agent: Agent, Version: 2,
			Actions: actions,
			Secondary: &parser.Secondary{Window: time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "one-minute window: agent transcripts stamp user lines to the minute (seed)"},
			Targets: []string{"agent-transcripts"},
			Names:   []string{"*.jsonl"},
			Doc:     "Cursor agent transcripts (.cursor/projects/*/agent-transcripts): secondary copy of each conversation, read here only when no global state.vscdb of the same home was collected",
		}, parseTranscriptFile),
		parser.New(parser.Spec{
			ID: "cursor/ai-tracking", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"ai-tracking"},
			Names:   []string{"ai-code-tracking.db"},
			Doc:     "Cursor .cursor/ai-tracking/ai-code-tracking.db: AI-written code hashes, conversation summaries, files deleted by the agent, scored commits",
		}, parseTracking),
		parser.New(parser.Spec{
			ID: "cursor/conversation-search", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"conversation-search"},
			Names:   []string{"conversation-search.db"},
			Doc:     "Cursor conversation-search.db: one conversation index row per indexed conversation",
		}, parseSearchDB),
		parser.New(parser.Spec{
			ID: "cursor/cli-config", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"cli-config", "project"},
			Names:   []string{"cli-config.json", "permissions.json", "cli.json"},
			Doc:     "Cursor .cursor/cli-config.json and permissions.json: standing permission settings (allow and deny rules, approval mode, terminal and MCP allowlists); auth info is never read",
		}, parseCLIConfig),
	}
}

// msTime turns an epoch number (ms, or s when small) into UTC.
func msTime(v int64) (time.Time, bool) { return parser.Epoch(v, 100_000_000_000) }

// jsonTime reads a time written as epoch ms (number or numeric string) or
// as an ISO-8601 string.
func jsonTime(raw json.RawMessage) (time.Time, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return time.Time{}, false
		}
		s = strings.TrimSpace(s)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return msTime(n)
		}
		for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC(), true
			}
		}
		return time.Time{}, false
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return time.Time{}, false
	}
	return msTime(int64(f))
}

// argsJSON turns tool arguments stored as a JSON string (rawArgs, params)
// or as an object into compact JSON.
func argsJSON(raws ...json.RawMessage) string {
	for _, raw := range raws {
		s := parser.JSONText(raw)
		if s == "" || s == "{}" {
			continue
		}
		if json.Valid([]byte(s)) {
			return parser.CompactJSON([]byte(s))
		}
		q, _ := json.Marshal(s)
		return string(q)
	}
	return ""
}

// identifying picks the most identifying argument of a tool call: the
// shell command, the file path, the URL, the pattern or query, the prompt.
func identifying(input string) string {
	var m map[string]any
	if json.Unmarshal([]byte(input), &m) != nil {
		var s string
		if json.Unmarshal([]byte(input), &s) == nil {
			return s
		}
		return ""
	}
	for _, k := range []string{"command", "cmd", "target_file", "targetFile", "file_path", "filePath", "relative_workspace_path", "relativeWorkspacePath", "path", "url", "search_term", "searchTerm", "pattern", "glob_pattern", "globPattern", "query", "target_directory", "prompt", "description"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// Homes. The global state.vscdb sits under the editor's User directory and
// the transcripts under .cursor in the same home; the home is what pairs a
// database with the transcripts it supersedes.
var (
	dbHomeRe = regexp.MustCompile(`^(.*?)/(?:\.config|Library/Application Support|AppData/Roaming)/Cursor/User/globalStorage/state\.vscdb$`)
	trHomeRe = regexp.MustCompile(`^(.*?)/\.cursor[^/]*/projects/[^/]+/agent-transcripts/`)
)

func slash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// dbHome returns the home of a global state.vscdb, or "".
func dbHome(p string) string {
	if m := dbHomeRe.FindStringSubmatch(slash(p)); m != nil {
		return m[1]
	}
	return ""
}

// transcriptHome returns the home of an agent transcript, or "".
func transcriptHome(p string) string {
	if m := trHomeRe.FindStringSubmatch(slash(p)); m != nil {
		return m[1]
	}
	return ""
}

// dbsOfHome lists the global state.vscdb files collected in home.
func dbsOfHome(in *parser.Input, home string) []parser.File {
	var out []parser.File
	for _, f := range in.List(parser.GlobEscape(home) + "/**/Cursor/User/globalStorage/state.vscdb") {
		if dbHome(f.Path) == home {
			out = append(out, f)
		}
	}
	return out
}

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
			ID: "cursor/state-db", Agent: Agent, Version: 6,
			Actions: actions,
			Targets: []string{"state-db", "remote-state"},
			Names:   []string{"state.vscdb"},
			Doc:     "Cursor global state.vscdb: composers and bubbles (prompts, replies, thinking, tool calls and results, permission decisions, models; subagent composers as their own sessions), composerHeaders (deleted conversations, recovered yes, with the agentKv:blob:* messages that name them), deleted composers and bubbles carved from freed space and stale WAL frames (recovered), settings blob (run modes, allow and deny lists, models last used), GitHub sign-in, cloud agents (origin, synced, status, repository, model), cloud environment repositories, cloud agents' MCP authorisations, plugin MCP servers and installed plugins",
		}, parseStateDB),
		parser.New(parser.Spec{
			ID: "cursor/transcript", Agent: Agent, Version: 6,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "no window: only a transcript's user lines carry a time, to the minute (the seed's one minute), and every other row only inherits it, so a reply or call more than a minute after its prompt would pair with nothing; every row names its conversation (the composer id), so rows pair within the conversation, one to one"},
			Targets: []string{"agent-transcripts"},
			Names:   []string{"*.jsonl", "*.txt"},
			Doc:     "Cursor agent transcripts (.cursor/projects/*/agent-transcripts, JSON Lines and the legacy .txt): the agent worker's secondary copy of each conversation, which survives its deletion from state.vscdb; subagents as their own sessions linked to the parent",
		}, parseTranscriptFile),
		parser.New(parser.Spec{
			ID: "cursor/cli-chats", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"cli-chats"},
			Names:   []string{"store.db"},
			Doc:     "Cursor Agent CLI chat store .cursor/chats/<md5 of cwd>/<id>/store.db: session metadata (name, model last used, run mode) and the message tree from latestRootBlobId (prompts, replies, reasoning, tool calls and results; messages off the latest tree kept after a system row)",
		}, parseCLIStore),
		parser.New(parser.Spec{
			ID: "cursor/cli-chat-meta", Agent: Agent, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "no window: prompt_history.json records no time; meta.json repeats store.db's metadata (same record ids); rows pair within the session"},
			Targets: []string{"cli-chat-meta"},
			Names:   []string{"meta.json", "prompt_history.json"},
			Doc:     "Cursor Agent CLI chat directory's meta.json (session name, model, run mode) and prompt_history.json (the prompts typed, secondary)",
		}, parseCLIChatMeta),
		parser.New(parser.Spec{
			ID: "cursor/mcp-oauth-attempts", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"mcp-oauth-attempts"},
			Names:   []string{"*.json"},
			Doc:     "Cursor User/globalStorage/mcp-oauth-attempts/<uuid>.json: one mcp oauth attempt row per MCP server sign-in (server, URL, client id; the PKCE verifier, state and tokens are never read)",
		}, parseMCPOAuthAttempt),
		parser.New(parser.Spec{
			ID: "cursor/ai-tracking", Agent: Agent, Version: 2, Trace: true,
			Actions: actions,
			Targets: []string{"ai-tracking"},
			Names:   []string{"ai-code-tracking.db"},
			Doc:     "Cursor .cursor/ai-tracking/ai-code-tracking.db: AI-written code hashes, conversation summaries, files deleted by the agent, scored commits",
		}, parseTracking),
		parser.New(parser.Spec{
			ID: "cursor/conversation-search", Agent: Agent, Version: 2, Trace: true,
			Actions: actions,
			Targets: []string{"conversation-search"},
			Names:   []string{"conversation-search.db"},
			Doc:     "Cursor conversation-search.db: one conversation index row per indexed conversation",
		}, parseSearchDB),
		parser.New(parser.Spec{
			ID: "cursor/cli-config", Agent: Agent, Version: 3,
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

// Homes. The transcripts sit under .cursor* in a home; the home is what
// pairs a subagent's top-level copy with its subagents/ file.
var trHomeRe = regexp.MustCompile(`^(.*?)/\.cursor[^/]*/projects/[^/]+/agent-transcripts/`)

func slash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// transcriptHome returns the home of an agent transcript, or "".
func transcriptHome(p string) string {
	if m := trHomeRe.FindStringSubmatch(slash(p)); m != nil {
		return m[1]
	}
	return ""
}

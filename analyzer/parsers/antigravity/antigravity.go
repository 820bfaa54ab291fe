package antigravity

import (
	"path"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Google Antigravity.
const Agent = "antigravity"

// brainWindow is the brain mirror's pairing window (the seed's 600 s).
const brainWindow = 600 * time.Second

// Parsers returns the Antigravity parsers.
func Parsers() []parser.Parser {
	all := []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System}
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "antigravity/conversations", Agent: Agent, Version: 3,
			Targets: []string{"conversations"}, Names: []string{"*.db"},
			Doc: "conversations/<id>.db steps (protobuf step_payload and permissions decoded without a schema: text fields as system rows) and conversation_summaries.db (every row, text columns and schemaless-decoded blobs), under the four data directories",
		}, parseDB),
		parser.New(parser.Spec{
			ID: "antigravity/brain-logs", Agent: Agent, Version: 2, Actions: actions,
			Targets: []string{"brain-logs"}, Names: []string{"*.jsonl"},
			Doc: "brain/<id>/.system_generated/logs/transcript_full.jsonl (else its chunks, else transcript.jsonl, else its chunks): user, assistant, thinking, tool_use, tool_result and system rows at each step's created_at (secondary, 600 s)",
			Secondary: &parser.Secondary{Window: brainWindow, TurnTypes: all,
				Basis: "the seed: the brain mirror is a secondary copy of the conversation database, paired within 600 s"},
		}, parseBrain),
		parser.New(parser.Spec{
			ID: "antigravity/history", Agent: Agent, Version: 2,
			Targets: []string{"history"}, Names: []string{"history.jsonl"},
			Doc: ".gemini/antigravity-cli/history.jsonl prompt recall log (display, timestamp, workspace, conversationId from CLI 1.3.x; secondary, 600 s)",
			Secondary: &parser.Secondary{Window: brainWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "the seed's 600 s brain-mirror window, taken for the CLI's prompt log of the same turns"},
		}, parseHistory),
		parser.New(parser.Spec{
			ID: "antigravity/permissions", Agent: Agent, Version: 1,
			Targets: []string{"permissions"}, Names: []string{"config.json", "*.json", "sidecar.json", "settings.json"},
			Doc: ".gemini/config/config.json, config/projects/*.json, config/sidecars/*/sidecar.json and antigravity-cli/settings.json: allow-list, access grant, trust, sandbox and migration keys as permission setting rows (file mtime)",
		}, parsePermissions),
	}
}

// dataDir names the data directory of a path under ~/.gemini
// (antigravity-cli, antigravity, antigravity-ide, antigravity-backup), or
// "".
func dataDir(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, "antigravity") {
			return seg
		}
	}
	return ""
}

// brainID is the conversation id of a brain/<id>/... path.
func brainID(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	i := strings.Index(p, "/brain/")
	if i < 0 {
		return ""
	}
	rest := p[i+len("/brain/"):]
	if j := strings.IndexByte(rest, '/'); j > 0 {
		return rest[:j]
	}
	return ""
}

// logsDir is the .system_generated/logs directory of a brain log file.
func logsDir(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.Index(p, "/.system_generated/logs/"); i >= 0 {
		return p[:i+len("/.system_generated/logs")]
	}
	return path.Dir(p)
}

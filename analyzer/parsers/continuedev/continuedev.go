package continuedev

import (
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Continue.
const Agent = "continue"

// Parsers returns the Continue parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "continue/sessions", Agent: Agent, Version: 6,
			Actions: actions,
			Targets: []string{"sessions"},
			Names:   []string{"*.json"},
			Doc:     "Continue sessions/<sessionId>.json (prompts, replies, thinking, tool calls and results, denials) timed from sessions/sessions.json dateCreated; sessions.json entries whose session file is gone",
		}, parseSessionFile),
		parser.New(parser.Spec{
			ID: "continue/dev-data", Agent: Agent, Version: 4,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "dev data events are stamped as the session's messages are written"},
			Targets: []string{"dev-data"},
			Names:   []string{"chatInteraction.jsonl", "toolUsage.jsonl", "editInteraction.jsonl", "editOutcome.jsonl", "chatFeedback.jsonl"},
			Doc:     "Continue dev_data/<schema>/*.jsonl: chat completions, tool usage, edit prompts and outcomes, feedback (secondary source)",
		}, parseDevData),
		parser.New(parser.Spec{
			ID: "continue/cli-log", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"logs"},
			Names:   []string{"cn.log", "cn[0-9]*.log"},
			Doc:     "Continue CLI logs/cn.log and rotated cn<N>.log: agent metadata posts, storage uploads, permission rules added and tool calls denied (host-local time)",
		}, parseCLILog),
		parser.New(parser.Spec{
			ID: "continue/permissions", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"permissions"},
			Names:   []string{"permissions.yaml"},
			Doc:     "Continue CLI permissions.yaml: one permission setting row per allow, ask or exclude rule",
		}, parsePermissions),
		parser.New(parser.Spec{
			ID: "continue/input-history", Agent: Agent, Version: 3,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "input_history.json records no time"},
			Targets: []string{"input-history"},
			Names:   []string{"input_history.json"},
			Doc:     "Continue CLI input_history.json: every prompt typed, with its time (secondary source)",
		}, parseInputHistory),
	}
}

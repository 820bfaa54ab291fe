package factorydroid

import (
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "factory-droid"

// Parsers returns the Factory droid parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "factory-droid/session", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: ".factory/sessions/<cwd-slug>/<id>.jsonl transcripts (typed prompts, injected <system-reminder> context as system, text, thinking, tool calls and results, denials, model switches, turn outcomes)",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "factory-droid/session-settings", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"session-settings"}, Names: []string{"*.settings.json", "*.settings.json.bak"},
			Doc: ".factory/sessions/<cwd-slug>/<id>.settings.json and its .bak: the session's model, autonomy and interaction mode, provider lock and token usage (file mtime)",
		}, parseSessionSettings),
		parser.New(parser.Spec{
			ID: "factory-droid/settings", Agent: Agent, Version: 1,
			Actions: actions, ReadsSecretKind: true,
			Targets: []string{"settings"}, Names: []string{"settings.json", "config.json"},
			Doc: ".factory/settings.json: command allow/deny/block lists, autonomy and model defaults, custom models (never the API key) (file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "factory-droid/history", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"history"}, Names: []string{"history.json"},
			Doc: ".factory/state/history.json: the TUI's prompt history (secondary user rows, no session)",
			Secondary: &parser.Secondary{Window: time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "droid 0.225.2 binary: the history keeps new Date() of the submit (re-stamped when the same prompt is repeated), within a second of the transcript's user message"},
		}, parseHistory),
		parser.New(parser.Spec{
			ID: "factory-droid/session-index", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"session-discovery"}, Names: []string{"session-discovery-index.json"},
			Doc: ".factory/cache/session-discovery-index.json: a session listed there whose transcript was not collected (secondary system row)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.System},
				Basis: "rows are written only for sessions with no collected transcript, so nothing pairs"},
		}, parseDiscoveryIndex),
		parser.New(parser.Spec{
			ID: "factory-droid/droids", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"droids"}, Names: []string{"*.md"},
			Doc: ".factory/droids/*.md custom droid (subagent) definitions: name, model, tools (file mtime)",
		}, parseDroid),
		parser.New(parser.Spec{
			ID: "factory-droid/state", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"state"}, Names: []string{"*.json"},
			Doc: ".factory/state/*.json background processes, background tasks and task (subagent) invocations (file mtime)",
		}, parseState),
		parser.New(parser.Spec{
			ID: "factory-droid/log", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"logs"}, Names: []string{"*.log"},
			Doc: ".factory/logs/droid-log-single.log ERROR records (system rows, with the session id the record names)",
		}, parseLog),
	}
}

package augment

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "augment"

// Parsers returns the Auggie (Augment CLI) parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "augment/session", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.json"},
			Doc: ".augment/sessions/<id>.json: chatHistory exchanges (typed prompts, text, thinking, tool calls with arguments and results, denials, per-exchange model and switches, changed files, summaries)",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "augment/prompt-history", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"prompt-history"}, Names: []string{"prompt-history.jsonl"},
			Doc: ".augment/prompt-history.jsonl: the TUI's prompt history (secondary user rows, no time, no session)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "auggie 0.36.0 bundle: {message} lines with no time or session"},
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "augment/settings", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"settings"}, Names: []string{"settings.json"},
			Doc: ".augment/settings.json: tool permissions, model and indexing defaults (file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "augment/state", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"state"}, Names: []string{".auggie.json"},
			Doc: ".augment/.auggie.json: last use and session count",
		}, parseState),
		parser.New(parser.Spec{
			ID: "augment/tasks", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"task-storage"},
			Doc:     ".augment/task-storage/tasks/<uuid> and manifest/manifest: each conversation's task list (state, sub-tasks)",
		}, parseTasks),
	}
}

package copilotdesktop

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/copilottools"
)

// Agent is the catalog name of GitHub Copilot Desktop.
const Agent = "copilot-desktop"

// Parsers returns the Copilot Desktop parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "copilot-desktop/data-db", Agent: Agent, Version: 4,
			Actions: copilottools.Actions,
			Targets: []string{"data-db"}, Names: []string{"data.db"},
			Doc: ".copilot/data.db: accounts (token presence only), settings, model providers, projects, worktrees, workspaces, desktop sessions (forks), activity, checkpoints, scheduled tasks, automations, deletion intents",
		}, parseDataDB),
		parser.New(parser.Spec{
			ID: "copilot-desktop/checkpoint-ref", Agent: Agent, Version: 2,
			Actions: copilottools.Actions,
			Targets: []string{"checkpoint-refs"},
			Doc:     ".copilot/repos/<name>/.git/refs/copilot/checkpoints/<session>/<seq>/<event> (one row per ref, file mtime)",
		}, parseCheckpointRef),
	}
}

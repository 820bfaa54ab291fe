package codex

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/codexhome"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "codex-cli"

// actions is Codex's tool table (codexhome.Actions).
var actions = codexhome.Actions

// Parsers returns the Codex CLI parsers: the Codex home's readers
// (parser/format/codexhome) on ~/.codex, then the ChatGPT desktop app's
// files that only Codex's home holds (.codex-global-state.json,
// automations/).
func Parsers() []parser.Parser {
	fl := codexhome.Flavor{Agent: agentName, Home: ".codex", Who: "Codex"}
	return append(codexhome.Parsers(fl),
		codexhome.SessionIndex(fl),
		parser.New(parser.Spec{
			ID: agentName + "/global-state", Agent: agentName, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "the desktop app's state file records no time: prompts pair on session and text alone"},
			Targets: []string{"config"},
			Names:   []string{".codex-global-state.json"},
			Doc:     "ChatGPT desktop app's .codex-global-state.json: prompt history, standing thread permissions, thread descriptions and the thread references that outlive a deleted thread (secondary source)",
		}, parseGlobalState),
		parser.New(parser.Spec{
			ID: agentName + "/automation", Agent: agentName, Version: 1,
			Actions: actions,
			Targets: []string{"config"},
			Names:   []string{"automation.toml"},
			Doc:     "ChatGPT desktop app's automations/*/automation.toml: one scheduled task row each (name, schedule, model, prompt, target thread)",
		}, parseAutomation),
	)
}

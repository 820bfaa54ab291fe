package openinterpreter

import (
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers/codex"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "open-interpreter"

// Parsers returns the Open Interpreter parsers: Codex's readers on the
// fork's paths (codex.ForkParsers), the session import ledger and the
// legacy Python tool's conversations.
func Parsers() []parser.Parser {
	ps := codex.ForkParsers(codex.Fork{
		Agent: agentName, Home: ".openinterpreter", Display: "Open Interpreter",
		HistorySecondary: &parser.Secondary{
			Window:    time.Minute,
			TurnTypes: []timeline.TurnType{timeline.User},
			Basis:     "codex-rs message_history.rs appends the prompt with its submission time in unix seconds as the rollout records the same turn's user_message",
		},
		StateDBSecondary: &parser.Secondary{
			Window:    time.Hour,
			TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
			Basis:     "codex-rs state threads.created_at is the thread's creation, which can precede its first prompt by the time the person took to type it",
		},
	})
	return append(ps,
		parser.New(parser.Spec{
			ID: agentName + "/imports", Agent: agentName, Version: 1,
			Targets: []string{"imports"}, Names: []string{"external_agent_session_imports.json"},
			Doc: "external_agent_session_imports.json: one system row per imported Claude Code or Cursor session, naming its source file, at import time",
		}, parseImports),
		parser.New(parser.Spec{
			ID: agentName + "/legacy-conversation", Agent: agentName, Version: 1,
			Targets: []string{"legacy-conversations"}, Names: []string{"*.json"},
			Doc: "the legacy Python tool's conversations/<words>__<local time>.json (LMC message arrays): prompts, replies, code runs and their console output",
		}, parseLegacy),
	)
}

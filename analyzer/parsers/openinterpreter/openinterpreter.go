package openinterpreter

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/codexhome"
)

const agentName = "open-interpreter"

// Parsers returns the Open Interpreter parsers: the Codex home's readers
// on the fork's paths (parser/format/codexhome), the session import ledger and the
// legacy Python tool's conversations.
func Parsers() []parser.Parser {
	ps := codexhome.Parsers(codexhome.Flavor{Agent: agentName, Home: ".openinterpreter", Who: "Open Interpreter (Codex fork)"})
	return append(ps,
		parser.New(parser.Spec{
			ID: agentName + "/imports", Agent: agentName, Version: 1,
			Targets: []string{"imports"}, Names: []string{"external_agent_session_imports.json"},
			Doc: "external_agent_session_imports.json: one system row per imported Claude Code or Cursor session, naming its source file, at import time",
		}, parseImports),
		parser.New(parser.Spec{
			ID: agentName + "/legacy-conversation", Agent: agentName, Version: 2, Actions: legacyActions,
			Targets: []string{"legacy-conversations"}, Names: []string{"*.json"},
			Doc: "the legacy Python tool's conversations/<words>__<local time>.json (LMC message arrays): prompts, replies, code runs and their console output",
		}, parseLegacy),
	)
}

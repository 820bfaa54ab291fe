package traex

import (
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/codexhome"
)

// Agent is the catalog name.
const Agent = "traex"

// Parsers returns Codex's rollout reader on TraeX's paths (the other Codex
// home readers are left out: nothing shows TraeX writes those files).
func Parsers() []parser.Parser {
	var ps []parser.Parser
	for _, p := range codexhome.Parsers(codexhome.Flavor{Agent: Agent, Home: ".trae/cli", Who: "TraeX (TRAE CLI, Codex fork)"}) {
		if strings.TrimPrefix(p.ID(), Agent+"/") == "rollout" {
			ps = append(ps, p)
		}
	}
	return ps
}

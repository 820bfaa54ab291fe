package parsers

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers/aider"
	"github.com/doubleagent/doubleagent/analyzer/parsers/chatgptdesktop"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudedesktop"
	"github.com/doubleagent/doubleagent/analyzer/parsers/cline"
	"github.com/doubleagent/doubleagent/analyzer/parsers/codex"
	"github.com/doubleagent/doubleagent/analyzer/parsers/continuedev"
	"github.com/doubleagent/doubleagent/analyzer/parsers/copilotcli"
	"github.com/doubleagent/doubleagent/analyzer/parsers/copilotdesktop"
	"github.com/doubleagent/doubleagent/analyzer/parsers/crush"
	"github.com/doubleagent/doubleagent/analyzer/parsers/cursor"
	"github.com/doubleagent/doubleagent/analyzer/parsers/gemini"
	"github.com/doubleagent/doubleagent/analyzer/parsers/goose"
	"github.com/doubleagent/doubleagent/analyzer/parsers/letta"
	"github.com/doubleagent/doubleagent/analyzer/parsers/openclaw"
	"github.com/doubleagent/doubleagent/analyzer/parsers/opencode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/pi"
	"github.com/doubleagent/doubleagent/analyzer/parsers/qwen"
	"github.com/doubleagent/doubleagent/analyzer/parsers/roocode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/vscode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/windsurf"
	"github.com/doubleagent/doubleagent/analyzer/parsers/zed"
)

func group(lists ...[]parser.Parser) []parser.Parser {
	var out []parser.Parser
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// All returns every registered parser, grouped by agent in catalog-name
// order. A parser's position only breaks ties; routing is by Match.
func All() []parser.Parser {
	return group(
		aider.Parsers(),          // aider
		chatgptdesktop.Parsers(), // chatgpt-desktop (reads codex-cli state-db codex-dev.db)
		claudecode.Parsers(),     // claude-code
		claudedesktop.Parsers(),  // claude-desktop
		cline.Parsers(),          // cline
		codex.Parsers(),          // codex-cli
		continuedev.Parsers(),    // continue
		copilotcli.Parsers(),     // copilot-cli
		copilotdesktop.Parsers(), // copilot-desktop
		crush.Parsers(),          // crush
		cursor.Parsers(),         // cursor
		gemini.Parsers(),         // gemini-cli
		goose.Parsers(),          // goose
		letta.Parsers(),          // letta (Letta Code local backend; conversations read by pi's session reader)
		openclaw.Parsers(),       // openclaw (agent and state databases; transcripts read by pi's session reader)
		opencode.Parsers(),       // opencode, kilo-code
		pi.Parsers(),             // pi, little-coder
		qwen.Parsers(),           // qwen-code
		roocode.Parsers(),        // roo-code
		vscode.Parsers(),         // vscode (Copilot Chat)
		windsurf.Parsers(),       // windsurf (hook transcripts, .pb wire decoding)
		zed.Parsers(),            // zed
	)
}

package parsers

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/parsers/agentzero"
	"github.com/doubleagent/doubleagent/analyzer/parsers/aider"
	"github.com/doubleagent/doubleagent/analyzer/parsers/amp"
	"github.com/doubleagent/doubleagent/analyzer/parsers/antigravity"
	"github.com/doubleagent/doubleagent/analyzer/parsers/augment"
	"github.com/doubleagent/doubleagent/analyzer/parsers/autogenstudio"
	"github.com/doubleagent/doubleagent/analyzer/parsers/camelai"
	"github.com/doubleagent/doubleagent/analyzer/parsers/chatgptdesktop"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudedesktop"
	"github.com/doubleagent/doubleagent/analyzer/parsers/cline"
	"github.com/doubleagent/doubleagent/analyzer/parsers/codebuff"
	"github.com/doubleagent/doubleagent/analyzer/parsers/codex"
	"github.com/doubleagent/doubleagent/analyzer/parsers/cody"
	"github.com/doubleagent/doubleagent/analyzer/parsers/commandcode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/continuedev"
	"github.com/doubleagent/doubleagent/analyzer/parsers/copilot"
	"github.com/doubleagent/doubleagent/analyzer/parsers/copilotcli"
	"github.com/doubleagent/doubleagent/analyzer/parsers/copilotdesktop"
	"github.com/doubleagent/doubleagent/analyzer/parsers/cortex"
	"github.com/doubleagent/doubleagent/analyzer/parsers/crewai"
	"github.com/doubleagent/doubleagent/analyzer/parsers/crush"
	"github.com/doubleagent/doubleagent/analyzer/parsers/cursor"
	"github.com/doubleagent/doubleagent/analyzer/parsers/deepseekharness"
	"github.com/doubleagent/doubleagent/analyzer/parsers/deepseektui"
	"github.com/doubleagent/doubleagent/analyzer/parsers/devin"
	"github.com/doubleagent/doubleagent/analyzer/parsers/dify"
	"github.com/doubleagent/doubleagent/analyzer/parsers/factorydroid"
	"github.com/doubleagent/doubleagent/analyzer/parsers/flowise"
	"github.com/doubleagent/doubleagent/analyzer/parsers/forge"
	"github.com/doubleagent/doubleagent/analyzer/parsers/gemini"
	"github.com/doubleagent/doubleagent/analyzer/parsers/geminiapps"
	"github.com/doubleagent/doubleagent/analyzer/parsers/goose"
	"github.com/doubleagent/doubleagent/analyzer/parsers/gptme"
	"github.com/doubleagent/doubleagent/analyzer/parsers/grok"
	"github.com/doubleagent/doubleagent/analyzer/parsers/hermes"
	"github.com/doubleagent/doubleagent/analyzer/parsers/iflow"
	"github.com/doubleagent/doubleagent/analyzer/parsers/kimicli"
	"github.com/doubleagent/doubleagent/analyzer/parsers/kimiwork"
	"github.com/doubleagent/doubleagent/analyzer/parsers/kiro"
	"github.com/doubleagent/doubleagent/analyzer/parsers/langflow"
	"github.com/doubleagent/doubleagent/analyzer/parsers/letta"
	"github.com/doubleagent/doubleagent/analyzer/parsers/localdeepresearch"
	"github.com/doubleagent/doubleagent/analyzer/parsers/metagpt"
	"github.com/doubleagent/doubleagent/analyzer/parsers/musecode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/n8n"
	"github.com/doubleagent/doubleagent/analyzer/parsers/nanobot"
	"github.com/doubleagent/doubleagent/analyzer/parsers/ollama"
	"github.com/doubleagent/doubleagent/analyzer/parsers/omnigent"
	"github.com/doubleagent/doubleagent/analyzer/parsers/openclaude"
	"github.com/doubleagent/doubleagent/analyzer/parsers/openclaw"
	"github.com/doubleagent/doubleagent/analyzer/parsers/opencode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/openhands"
	"github.com/doubleagent/doubleagent/analyzer/parsers/openinterpreter"
	"github.com/doubleagent/doubleagent/analyzer/parsers/pearai"
	"github.com/doubleagent/doubleagent/analyzer/parsers/pi"
	"github.com/doubleagent/doubleagent/analyzer/parsers/piebald"
	"github.com/doubleagent/doubleagent/analyzer/parsers/poolside"
	"github.com/doubleagent/doubleagent/analyzer/parsers/positassistant"
	"github.com/doubleagent/doubleagent/analyzer/parsers/pydanticclai"
	"github.com/doubleagent/doubleagent/analyzer/parsers/qoder"
	"github.com/doubleagent/doubleagent/analyzer/parsers/qwen"
	"github.com/doubleagent/doubleagent/analyzer/parsers/qwenpaw"
	"github.com/doubleagent/doubleagent/analyzer/parsers/reasonix"
	"github.com/doubleagent/doubleagent/analyzer/parsers/roocode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/shelley"
	"github.com/doubleagent/doubleagent/analyzer/parsers/shellgpt"
	"github.com/doubleagent/doubleagent/analyzer/parsers/surface"
	"github.com/doubleagent/doubleagent/analyzer/parsers/tabby"
	"github.com/doubleagent/doubleagent/analyzer/parsers/trae"
	"github.com/doubleagent/doubleagent/analyzer/parsers/traex"
	"github.com/doubleagent/doubleagent/analyzer/parsers/twinny"
	"github.com/doubleagent/doubleagent/analyzer/parsers/vibe"
	"github.com/doubleagent/doubleagent/analyzer/parsers/vscode"
	"github.com/doubleagent/doubleagent/analyzer/parsers/vscopilot"
	"github.com/doubleagent/doubleagent/analyzer/parsers/warp"
	"github.com/doubleagent/doubleagent/analyzer/parsers/windsurf"
	"github.com/doubleagent/doubleagent/analyzer/parsers/workbuddy"
	"github.com/doubleagent/doubleagent/analyzer/parsers/zed"
	"github.com/doubleagent/doubleagent/analyzer/parsers/zencoder"
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
		agentzero.Parsers(),         // agent-zero
		aider.Parsers(),             // aider
		amp.Parsers(),               // amp (prompt history and logs; threads are server-side)
		antigravity.Parsers(),       // antigravity (CLI, app, IDE, backup data directories)
		augment.Parsers(),           // augment (Auggie CLI)
		autogenstudio.Parsers(),     // autogen-studio
		camelai.Parsers(),           // camel-ai
		chatgptdesktop.Parsers(),    // chatgpt-desktop (reads codex-cli state-db codex-dev.db)
		claudecode.Parsers(),        // claude-code
		claudedesktop.Parsers(),     // claude-desktop
		cline.Parsers(),             // cline
		codebuff.Parsers(),          // codebuff
		codex.Parsers(),             // codex-cli
		cody.Parsers(),              // cody (JetBrains agent state, legacy history; cody/settings reads vscode settings.json)
		commandcode.Parsers(),       // command-code
		continuedev.Parsers(),       // continue
		copilot.Parsers(),           // copilot (language server token store: accounts, never the token)
		copilotcli.Parsers(),        // copilot-cli
		copilotdesktop.Parsers(),    // copilot-desktop
		cortex.Parsers(),            // cortex (Snowflake Cortex Code)
		crewai.Parsers(),            // crewai
		crush.Parsers(),             // crush
		cursor.Parsers(),            // cursor
		deepseekharness.Parsers(),   // deepseek-harness (dsh)
		deepseektui.Parsers(),       // deepseek-tui (CodeWhale)
		devin.Parsers(),             // devin (the local CLI)
		dify.Parsers(),              // dify (the agent sandbox volume)
		factorydroid.Parsers(),      // factory-droid
		flowise.Parsers(),           // flowise
		forge.Parsers(),             // forge (forgecode .forge.db)
		geminiapps.Parsers(),        // gemini-apps (an unpacked Takeout export)
		gemini.Parsers(),            // gemini-cli
		goose.Parsers(),             // goose
		gptme.Parsers(),             // gptme
		grok.Parsers(),              // grok
		hermes.Parsers(),            // hermes
		iflow.Parsers(),             // iflow
		kimicli.Parsers(),           // kimi-cli
		kimiwork.Parsers(),          // kimi-work
		kiro.Parsers(),              // kiro (Amazon Q / Kiro CLI)
		langflow.Parsers(),          // langflow (server langflow.db and Desktop database.db)
		letta.Parsers(),             // letta (Letta Code local backend; conversations read by the pi session format, parser/format/pisession)
		localdeepresearch.Parsers(), // local-deep-research
		metagpt.Parsers(),           // metagpt (model config, never the key)
		musecode.Parsers(),          // muse-code
		n8n.Parsers(),               // n8n
		nanobot.Parsers(),           // nanobot
		ollama.Parsers(),            // ollama
		omnigent.Parsers(),          // omnigent
		openclaude.Parsers(),        // openclaude
		openclaw.Parsers(),          // openclaw (agent and state databases; transcripts read by the pi session format, parser/format/pisession)
		opencode.Parsers(),          // opencode, kilo-code, icodemate, zcode (ZCode CLI db.sqlite), mimocode (OpenCode forks)
		openhands.Parsers(),         // openhands
		openinterpreter.Parsers(),   // open-interpreter (Codex readers on its paths)
		pearai.Parsers(),            // pearai (Continue and Roo Code forks)
		pi.Parsers(),                // pi, little-coder, prime-agent, omp (pi forks)
		piebald.Parsers(),           // piebald
		poolside.Parsers(),          // poolside (pool CLI trajectories)
		positassistant.Parsers(),    // posit-assistant
		pydanticclai.Parsers(),      // pydantic-clai (clai v1 prompt history)
		qoder.Parsers(),             // qoder
		qwen.Parsers(),              // qwen-code
		qwenpaw.Parsers(),           // qwenpaw (CoPaw)
		reasonix.Parsers(),          // reasonix
		roocode.Parsers(),           // roo-code
		shelley.Parsers(),           // shelley (exe.dev)
		shellgpt.Parsers(),          // shellgpt
		tabby.Parsers(),             // tabby
		trae.Parsers(),              // trae (ByteDance IDE)
		traex.Parsers(),             // traex (TRAE CLI, Codex readers on its paths)
		vibe.Parsers(),              // vibe (Mistral Vibe)
		vscopilot.Parsers(),         // visualstudio-copilot (OpenTelemetry traces)
		vscode.Parsers(),            // vscode (Copilot Chat)
		warp.Parsers(),              // warp (warp.sqlite: agent_tasks protobuf, ai_queries, agent_conversations, commands)
		windsurf.Parsers(),          // windsurf (hook transcripts, .pb wire decoding)
		workbuddy.Parsers(),         // workbuddy
		zed.Parsers(),               // zed
		zencoder.Parsers(),          // zencoder
		// One control-surface parser per agent (<agent>/surface): hooks,
		// MCP servers, skills, agents, commands, plugins, rules files.
		surface.Parsers(),
		// One parser per state.vscdb owner (vscode, cursor, kiro, pearai,
		// trae, windsurf): the editor extensions' rows, each store opened once.
		vscodestate.ExtensionStateParsers(
			cody.StateExtension(),    // cody
			pearai.StateExtension(),  // pearai (pearai-roo-cline)
			roocode.StateExtension(), // roo-code (RooVeterinaryInc.roo-cline)
			tabby.StateExtension(),   // tabby
			twinny.StateExtension(),  // twinny
		),
	)
}

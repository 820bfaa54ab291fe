package kimicli

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/kimiwire"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "kimi-cli"

// maxWhole bounds the small JSON files read whole (kimi.json, state.json).
const maxWhole = kimiwire.MaxWhole

// Parsers returns the Kimi CLI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "kimi-cli/wire", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"wire.jsonl"},
			Doc: "sessions/<work dir md5>/<session>/wire.jsonl and subagents/<agent>/wire.jsonl: typed prompts (TurnBegin, SteerInput, /btw), replies and thinking, tool calls and results by call id, approval requests and decisions, questions and answers, hooks, compaction, retries, notifications, plans, token usage per step; subagent events",
		}, parseWire),
		parser.New(parser.Spec{
			ID: "kimi-cli/state", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-state"}, Names: []string{"state.json"},
			Doc: "sessions/*/*/state.json: the session's approval state (yolo, afk, actions approved for the session), title, archive, plan mode, extra directories and to-dos, at the file's mtime",
		}, parseState),
		parser.New(parser.Spec{
			ID: "kimi-cli/work-dirs", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"work-dirs"}, Names: []string{"kimi.json"},
			Doc: "kimi.json: every work directory Kimi CLI ran in, its sessions folder (md5 of the path) and last session, at the file's mtime",
		}, parseWorkDirs),
		parser.New(parser.Spec{
			ID: "kimi-cli/user-history", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"user-history"}, Names: []string{"*.jsonl"},
			Doc: "user-history/<work dir md5>.jsonl: the shell's prompt history ({content} lines, no time), user rows (secondary)",
			Secondary: &parser.Secondary{
				Window:    0,
				TurnTypes: []timeline.TurnType{timeline.User},
				Basis:     "src/kimi_cli/ui/shell/prompt.py appends {content} with no time or session; pairs with the wire's TurnBegin rows by text alone",
			},
		}, parseUserHistory),
	}
}
func parseWire(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return kimiwire.Parse(ctx, in, out, kimiwire.Options{SubagentDir: "subagents"})
}

// actions is Kimi CLI's tool table (kimiwire.Actions).
var actions = kimiwire.Actions

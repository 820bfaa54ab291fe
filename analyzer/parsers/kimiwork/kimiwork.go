package kimiwork

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/kimiwire"
)

const agentName = "kimi-work"

// Parsers returns the Kimi Work parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: agentName + "/wire", Agent: agentName, Version: 5, Actions: kimiwire.WireActions,
			Targets: []string{"sessions", "sessions-xdg-data"}, Names: []string{"wire.jsonl"},
			Doc: "kimi-desktop's daimon runtime sessions/<workspace>/conv-<id>/wire.jsonl and agents/<agent>/wire.jsonl (Kimi CLI's wire format, or the Kimi Code journal's top-level records, read as kimi-cli/code-wire reads them): typed prompts, replies, tool calls and results, approvals, questions, token usage per step, subagent events",
		}, parseWire),
	}
}

func parseWire(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return kimiwire.Parse(ctx, in, out, kimiwire.Options{SubagentDir: "agents"})
}

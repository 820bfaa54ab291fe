package iflow

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
)

const agentName = "iflow"

// Parsers returns the iFlow CLI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: agentName + "/transcript", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"projects"},
			Names:   []string{"*.jsonl"},
			Doc:     "iFlow CLI session transcripts (.iflow/projects/<project>/session-<id>.jsonl, the Claude Code transcript format): prompts, replies, tool calls (one row per call id across the streaming snapshots) and their results",
		}, parseTranscript),
	}
}

func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return claudetranscript.Parse(ctx, in, out, claudetranscript.Options{Agent: agentName, CallIdentity: true, ResultStatus: true})
}

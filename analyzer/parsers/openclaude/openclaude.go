package openclaude

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
)

const agentName = "openclaude"

// Parsers returns the OpenClaude parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: agentName + "/transcript", Agent: agentName, Version: 2, Actions: claudetranscript.Actions,
			Targets: []string{"projects"},
			Names:   []string{"*.jsonl"},
			Doc:     "OpenClaude session and subagent transcripts (.openclaude/projects/<slug>/<session>.jsonl, Claude Code's transcript format)",
		}, parseTranscript),
	}
}

func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return claudetranscript.Parse(ctx, in, out, claudetranscript.Options{Agent: agentName})
}

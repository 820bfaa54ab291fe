package qoder

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
)

const agentName = "qoder"

// Parsers returns the Qoder parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: agentName + "/transcript", Agent: agentName, Version: 2, Actions: claudetranscript.Actions,
			Targets: []string{"projects", "ide-projects"},
			Names:   []string{"*.jsonl"},
			Doc:     "Qoder CLI and IDE session and subagent transcripts (.qoder/projects/<cwd>/<session>.jsonl, SharedClientCache/cli/projects; Claude Code's transcript format)",
		}, parseTranscript),
		parser.New(parser.Spec{
			ID: agentName + "/meta", Agent: agentName, Version: 1,
			Targets: []string{"session-meta", "ide-session-meta"},
			Names:   []string{"*-session.json", "agent-*.meta.json"},
			Doc:     "<session>-session.json (title, working dir, the session it was forked from or continues: ParentSessionID) and subagents/agent-<id>.meta.json (the subagent's type, task and starting tool call, parent the session folder), one row each at the file mtime; other members named",
		}, parseMeta),
	}
}

func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return claudetranscript.Parse(ctx, in, out, claudetranscript.Options{Agent: agentName})
}

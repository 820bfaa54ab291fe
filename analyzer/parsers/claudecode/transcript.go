package claudecode

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
)

// Actions is Claude Code's tool table (claudetranscript.Actions).
var Actions = claudetranscript.Actions

// Transcript returns the parser of session transcripts,
// .claude/projects/<slug>/<session>.jsonl and the subagent files.
func Transcript() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/transcript",
		Actions: Actions,
		Agent:   Agent,
		Version: 7,
		Targets: []string{"projects"},
		Names:   []string{"*.jsonl"},
		Doc:     "Claude Code session transcripts and subagent transcripts (.claude/projects/<slug>/<session>.jsonl)",
		// One Open, read front to back, no MTime (claudetranscript.Parse);
		// its OpenRelated reads persisted tool outputs, which are not
		// transcripts and so are spooled.
		Streamable: true,
	}, parseTranscript)
}

func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return claudetranscript.Parse(ctx, in, out, claudetranscript.Options{Agent: Agent})
}

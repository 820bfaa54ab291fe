package claudedesktop

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Transcript returns the parser of Cowork and Code-tab transcripts,
// <session dir>/.claude/projects/<slug>/<cliSessionId>.jsonl with their
// subagent files, and claude-code-sessions/.../imported-staging/*.jsonl.
// They are Claude Code transcripts and are read by the Claude Code transcript reader
// (parser/format/claudetranscript).
func Transcript() parser.Parser {
	return newFiltered(parser.Spec{
		ID:      "claude-desktop/transcript",
		Actions: claudetranscript.Actions,
		Agent:   Agent,
		Version: 4,
		Targets: sessionTargets,
		Names:   []string{"*.jsonl"},
		Doc:     "Claude desktop Cowork and Code-tab transcripts (<session dir>/.claude/projects/<slug>/<cliSessionId>.jsonl, imported-staging/*.jsonl), read with the claude-code reader",
	}, parseTranscript, isTranscript)
}

func isTranscript(p string) bool {
	if storeKind(p) == "" || baseOf(p) == "audit.jsonl" {
		return false
	}
	return sessionDir(p) != "" || baseOf(dirOf(p)) == "imported-staging"
}

func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := slash(in.Path)
	project := ""
	if rec := relatedRecord(in, sessionDir(p)); rec != nil {
		project = rec.project()
	}
	return claudetranscript.Parse(ctx, in, &desktopSink{Sink: out, project: project}, claudetranscript.Options{Agent: Agent})
}

// desktopSink relabels the claude-code reader's rows: agent claude-desktop
// and, when the session record names one, the host project instead of the
// VM guest cwd.
type desktopSink struct {
	parser.Sink
	project string
}

func (s *desktopSink) Event(e timeline.Event) {
	e.Agent = Agent
	if s.project != "" {
		e.ProjectPath = s.project
	}
	s.Sink.Event(e)
}

func (s *desktopSink) Session(st timeline.SessionState) {
	st.Key.Agent = Agent
	s.Sink.Session(st)
}

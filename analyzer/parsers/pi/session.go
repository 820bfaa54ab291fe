package pi

import (
	"context"
	"path"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/pisession"
)

// pi's own session files, read by the pi session format reader
// (analyzer/parser/format/pisession) with little-coder detection on.
func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	s := pisession.NewSession(in, out, pisession.Options{Agent: Agent, LittleCoder: true, Contract: true})
	// The session id is in the header; a file cut before it still has the
	// id in its name (<time>_<id>.jsonl).
	base := strings.TrimSuffix(path.Base(in.Path), ".jsonl")
	if i := strings.LastIndex(base, "_"); i >= 0 {
		s.SetID(base[i+1:])
	}
	return s.ReadLines(ctx, rc)
}

// The session format's reader, as pi's other readers (the debug log,
// little-coder's v0 sessions) use it.
type sessionOptions = pisession.Options

func newSession(in *parser.Input, out parser.Sink, o sessionOptions) *pisession.Session {
	return pisession.NewSession(in, out, o)
}
func contentText(raw []byte) string { return pisession.ContentText(raw) }
func mainArg(raw []byte) string     { return pisession.MainArg(raw) }

package continuedev

import (
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/continuesession"
)

// Continue's session files and the helpers its other readers share with
// them live in the Continue session format (analyzer/parser/format/continuesession).
var parseSessionFile = continuesession.ParseSessionFile

const resumeMsg = continuesession.ResumeMsg

type sessionSpan = continuesession.SessionSpan

func sessionSpans(in *parser.Input, dir string) []sessionSpan {
	return continuesession.SessionSpans(in, dir)
}
func attributeResume(spans []sessionSpan, t time.Time) (string, int) {
	return continuesession.AttributeResume(spans, t)
}
func continueDir(p string) string { return continuesession.ContinueDir(p) }
func readWhole(in *parser.Input, out parser.Sink) ([]byte, error) {
	return continuesession.ReadWhole(in, out)
}
func epochMillis(raw json.RawMessage) (time.Time, bool) { return continuesession.EpochMillis(raw) }
func argsJSON(raw json.RawMessage) (string, map[string]any) {
	return continuesession.ArgsJSON(raw)
}
func identifying(args map[string]any) string { return continuesession.Identifying(args) }

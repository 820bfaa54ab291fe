package openinterpreter

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// legacyActions names the legacy Python tool's one tool: a code block it
// runs (interpreter/core/respond.py).
var legacyActions = map[string]timeline.Action{
	"execute": timeline.ActExecute,
}

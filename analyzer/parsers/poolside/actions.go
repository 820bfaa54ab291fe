package poolside

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the Poolside CLI's tools, as its trajectories name them
// (kenn-io/agentsview 5386007 poolside.go and poolside_test.go; the CLI is
// closed source), to the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"read":         timeline.ActFileRead,
	"shell":        timeline.ActExecute,
	"shell_status": timeline.ActExecute,
	"shell_tail":   timeline.ActExecute,
	"shell_kill":   timeline.ActExecute,
	"skill":        timeline.ActOther,
}

package reasonix

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Reasonix's built-in tools (the tool list Reasonix 1.38.11
// sent to the loopback model in the real run here) to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"bash":           timeline.ActExecute,
	"job_kill":       timeline.ActExecute,
	"job_output":     timeline.ActExecute,
	"read_file":      timeline.ActFileRead,
	"view_image":     timeline.ActFileRead,
	"write_file":     timeline.ActFileWrite,
	"edit_file":      timeline.ActFileEdit,
	"ask":            timeline.ActAskUser,
	"todo_write":     timeline.ActTodo,
	"create_goal":    timeline.ActTodo,
	"get_goal":       timeline.ActTodo,
	"update_goal":    timeline.ActTodo,
	"compress":       timeline.ActOther,
	"use_capability": timeline.ActOther,
}

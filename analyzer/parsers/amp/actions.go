package amp

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Amp's tool names (the builtin tools named in the
// @ampcode/cli 0.0.1790142911 JavaScript) to the one action vocabulary
// (analyzer/docs/actions.md); "terminal" is the terminal tool whose shell
// history this package reads.
var actions = map[string]timeline.Action{
	"Bash":              timeline.ActExecute,
	"terminal":          timeline.ActExecute,
	"Read":              timeline.ActFileRead,
	"Grep":              timeline.ActSearch,
	"glob":              timeline.ActSearch,
	"finder":            timeline.ActSearch,
	"create_file":       timeline.ActFileWrite,
	"edit_file":         timeline.ActFileEdit,
	"Task":              timeline.ActSubagent,
	"oracle":            timeline.ActSubagent,
	"web_search":        timeline.ActWebFetch,
	"read_web_page":     timeline.ActWebFetch,
	"todo_write":        timeline.ActTodo,
	"read_mcp_resource": timeline.ActMCP,
	"mcp__*":            timeline.ActMCP,
}

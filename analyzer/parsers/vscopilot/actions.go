package vscopilot

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names Copilot in Visual Studio records (the ones
// agentsview's visualstudio_copilot.go at 5386007 normalizes) to the one
// action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"get_file":                timeline.ActFileRead,
	"read_file":               timeline.ActFileRead,
	"file_search":             timeline.ActSearch,
	"code_search":             timeline.ActSearch,
	"get_web_pages":           timeline.ActWebFetch,
	"run_command_in_terminal": timeline.ActExecute,
	"run_command":             timeline.ActExecute,
	"runInTerminal":           timeline.ActExecute,
	"run_build":               timeline.ActExecute,
	"apply_patch":             timeline.ActFileEdit,
	"edit_file":               timeline.ActFileEdit,
	"create_file":             timeline.ActFileWrite,
}

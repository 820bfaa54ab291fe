package camelai

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the function names of CAMEL's built-in toolkits
// (camel-ai/camel @13dc7a7 camel/toolkits: code_execution.py,
// file_toolkit.py, human_toolkit.py, search_toolkit.py) to the one action
// vocabulary (analyzer/docs/actions.md); the many other toolkits' functions
// are "other".
var actions = map[string]timeline.Action{
	"execute_code":          timeline.ActExecute,
	"execute_command":       timeline.ActExecute,
	"read_file":             timeline.ActFileRead,
	"write_to_file":         timeline.ActFileWrite,
	"edit_file":             timeline.ActFileEdit,
	"notebook_edit_cell":    timeline.ActFileEdit,
	"glob_files":            timeline.ActSearch,
	"grep_files":            timeline.ActSearch,
	"search_files":          timeline.ActSearch,
	"ask_human_via_console": timeline.ActAskUser,
	"search_*":              timeline.ActWebFetch,
}

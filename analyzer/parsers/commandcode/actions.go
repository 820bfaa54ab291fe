package commandcode

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Command Code's built-in tools (the tool-name table of
// command-code 1.64.0's dist/cli.mjs) to the one action vocabulary
// (analyzer/docs/actions.md); MCP and other tools are "other".
var actions = map[string]timeline.Action{
	"read_file":           timeline.ActFileRead,
	"read_multiple_files": timeline.ActFileRead,
	"read_directory":      timeline.ActFileRead,
	"edit_file":           timeline.ActFileEdit,
	"write_file":          timeline.ActFileWrite,
	"grep":                timeline.ActSearch,
	"glob":                timeline.ActSearch,
	"shell_command":       timeline.ActExecute,
	"powershell":          timeline.ActExecute,
	"run_command":         timeline.ActExecute,
	"monitor_command":     timeline.ActExecute,
	"web_fetch":           timeline.ActWebFetch,
	"web_search":          timeline.ActWebFetch,
	"todo_write":          timeline.ActTodo,
	"task_create":         timeline.ActTodo,
	"task_update":         timeline.ActTodo,
	"task_list":           timeline.ActTodo,
	"task_get":            timeline.ActTodo,
	"enter_plan_mode":     timeline.ActTodo,
	"exit_plan_mode":      timeline.ActTodo,
	"ask_user_question":   timeline.ActAskUser,
	"agent":               timeline.ActSubagent,
	"explore":             timeline.ActSubagent,
	"task":                timeline.ActSubagent,
	"agent_output":        timeline.ActSubagent,
}

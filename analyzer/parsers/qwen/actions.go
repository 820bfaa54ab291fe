package qwen

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps qwen-code's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"edit":                timeline.ActFileEdit,
	"exit_plan_mode":      timeline.ActAskUser,
	"glob":                timeline.ActSearch,
	"grep_search":         timeline.ActSearch,
	"list_directory":      timeline.ActFileRead,
	"mcp__*":              timeline.ActMCP,
	"read_file":           timeline.ActFileRead,
	"read_many_files":     timeline.ActFileRead,
	"replace":             timeline.ActFileEdit,
	"run_shell_command":   timeline.ActExecute,
	"save_memory":         timeline.ActOther,
	"search_file_content": timeline.ActSearch,
	"task":                timeline.ActSubagent,
	"todo_write":          timeline.ActTodo,
	"web_fetch":           timeline.ActWebFetch,
	"web_search":          timeline.ActWebFetch,
	"write_file":          timeline.ActFileWrite,
}

package nanobot

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps nanobot's tool names (nanobot/agent/tools at the commit
// read) to the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"apply_patch":          timeline.ActFileEdit,
	"create_goal":          timeline.ActTodo,
	"cron":                 timeline.ActTodo,
	"edit_file":            timeline.ActFileEdit,
	"exec":                 timeline.ActExecute,
	"find_files":           timeline.ActSearch,
	"generate_image":       timeline.ActOther,
	"grep":                 timeline.ActSearch,
	"list_dir":             timeline.ActFileRead,
	"list_exec_sessions":   timeline.ActExecute,
	"list_sessions":        timeline.ActOther,
	"mcp_*":                timeline.ActMCP,
	"message":              timeline.ActOther,
	"my":                   timeline.ActOther,
	"read_file":            timeline.ActFileRead,
	"read_session":         timeline.ActOther,
	"run_cli_app":          timeline.ActExecute,
	"search_sessions":      timeline.ActSearch,
	"send_session_message": timeline.ActSubagent,
	"spawn":                timeline.ActSubagent,
	"update_goal":          timeline.ActTodo,
	"web_fetch":            timeline.ActWebFetch,
	"web_search":           timeline.ActWebFetch,
	"write_file":           timeline.ActFileWrite,
	"write_stdin":          timeline.ActExecute,
}

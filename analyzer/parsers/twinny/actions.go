package twinny

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps twinny's agent tools (src/extension/tools) to the one
// action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"run_command":    timeline.ActExecute,
	"read_file":      timeline.ActFileRead,
	"list_files":     timeline.ActFileRead,
	"write_file":     timeline.ActFileWrite,
	"create_file":    timeline.ActFileWrite,
	"edit_file":      timeline.ActFileEdit,
	"apply_diff":     timeline.ActFileEdit,
	"delete_file":    timeline.ActFileDelete,
	"search_files":   timeline.ActSearch,
	"search":         timeline.ActSearch,
	"web_search":     timeline.ActWebFetch,
	"fetch_url":      timeline.ActWebFetch,
	"ask_user":       timeline.ActAskUser,
	"mcp_*":          timeline.ActMCP,
	"*__*":           timeline.ActMCP,
	"update_todos":   timeline.ActTodo,
	"spawn_subagent": timeline.ActSubagent,
}

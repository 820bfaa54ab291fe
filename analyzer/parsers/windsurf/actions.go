package windsurf

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps windsurf's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"ask_user_question":    timeline.ActAskUser,
	"browser_preview":      timeline.ActWebFetch,
	"codebase_search":      timeline.ActSearch,
	"command_status":       timeline.ActExecute,
	"edit_file":            timeline.ActFileEdit,
	"find_by_name":         timeline.ActSearch,
	"grep_search":          timeline.ActSearch,
	"list_dir":             timeline.ActFileRead,
	"mcp*":                 timeline.ActMCP,
	"multi_edit":           timeline.ActFileEdit,
	"read_url_content":     timeline.ActWebFetch,
	"replace_file_content": timeline.ActFileEdit,
	"run_command":          timeline.ActExecute,
	"search_web":           timeline.ActWebFetch,
	"todo_list":            timeline.ActTodo,
	"trajectory_search":    timeline.ActSearch,
	"update_plan":          timeline.ActTodo,
	"view_code_item":       timeline.ActFileRead,
	"view_content_chunk":   timeline.ActWebFetch,
	"view_file":            timeline.ActFileRead,
	"view_file_outline":    timeline.ActFileRead,
	"write_to_file":        timeline.ActFileWrite,
}

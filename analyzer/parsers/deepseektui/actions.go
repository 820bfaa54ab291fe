package deepseektui

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps CodeWhale's built-in tools (the names its tool registry
// gives them at 75dca2cfb, crates/tui/src/tools) to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"agent":              timeline.ActSubagent,
	"apply_patch":        timeline.ActFileEdit,
	"bash":               timeline.ActExecute,
	"create_goal":        timeline.ActTodo,
	"edit":               timeline.ActFileEdit,
	"edit_file":          timeline.ActFileEdit,
	"fetch_url":          timeline.ActWebFetch,
	"file_search":        timeline.ActSearch,
	"fim_edit":           timeline.ActFileEdit,
	"grep_files":         timeline.ActSearch,
	"list_dir":           timeline.ActFileRead,
	"load_skill":         timeline.ActFileRead,
	"project_map":        timeline.ActSearch,
	"read":               timeline.ActFileRead,
	"read_file":          timeline.ActFileRead,
	"read_media":         timeline.ActFileRead,
	"request_user_input": timeline.ActAskUser,
	"run_tests":          timeline.ActExecute,
	"task_shell_start":   timeline.ActExecute,
	"task_shell_wait":    timeline.ActExecute,
	"update_goal":        timeline.ActTodo,
	"update_plan":        timeline.ActTodo,
	"web_search":         timeline.ActWebFetch,
	"write":              timeline.ActFileWrite,
	"write_file":         timeline.ActFileWrite,
}

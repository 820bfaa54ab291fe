package vscode

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps vscode's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"apply_patch":                      timeline.ActFileEdit,
	"copilot_getNotebookSummary":       timeline.ActFileRead,
	"create_directory":                 timeline.ActFileWrite,
	"create_file":                      timeline.ActFileWrite,
	"create_new_workspace":             timeline.ActFileWrite,
	"edit_file":                        timeline.ActFileEdit,
	"edit_notebook_file":               timeline.ActFileEdit,
	"fetch_webpage":                    timeline.ActWebFetch,
	"file_search":                      timeline.ActSearch,
	"get_changed_files":                timeline.ActFileRead,
	"get_errors":                       timeline.ActFileRead,
	"get_terminal_output":              timeline.ActExecute,
	"github_repo":                      timeline.ActWebFetch,
	"grep_search":                      timeline.ActSearch,
	"insert_edit_into_file":            timeline.ActFileEdit,
	"list_code_usages":                 timeline.ActSearch,
	"list_dir":                         timeline.ActFileRead,
	"manage_todo_list":                 timeline.ActTodo,
	"mcp_*":                            timeline.ActMCP,
	"multi_replace_string_in_file":     timeline.ActFileEdit,
	"read_file":                        timeline.ActFileRead,
	"read_notebook_cell_output":        timeline.ActFileRead,
	"replace_string_in_file":           timeline.ActFileEdit,
	"runSubagent":                      timeline.ActSubagent,
	"runTests":                         timeline.ActExecute,
	"run_in_terminal":                  timeline.ActExecute,
	"run_notebook_cell":                timeline.ActExecute,
	"run_task":                         timeline.ActExecute,
	"run_vscode_command":               timeline.ActExecute,
	"search_subagent":                  timeline.ActSubagent,
	"search_workspace_symbols":         timeline.ActSearch,
	"semantic_search":                  timeline.ActSearch,
	"test_search":                      timeline.ActSearch,
	"vscode_askQuestions":              timeline.ActAskUser,
	"vscode_searchExtensions_internal": timeline.ActOther,
}

package iflow

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps iFlow CLI's tool names (a Gemini CLI fork's tools, with
// iFlow's own) to the one action vocabulary (analyzer/docs/actions.md); a
// tool it does not name is "other".
var actions = map[string]timeline.Action{
	"ask_user_question":   timeline.ActAskUser,
	"exit_plan_mode":      timeline.ActAskUser,
	"glob":                timeline.ActSearch,
	"image_read":          timeline.ActFileRead,
	"list_directory":      timeline.ActFileRead,
	"lsp_find_references": timeline.ActSearch,
	"lsp_goto_definition": timeline.ActSearch,
	"lsp_hover":           timeline.ActSearch,
	"multi_edit":          timeline.ActFileEdit,
	"read_file":           timeline.ActFileRead,
	"read_many_files":     timeline.ActFileRead,
	"replace":             timeline.ActFileEdit,
	"run_shell_command":   timeline.ActExecute,
	"save_memory":         timeline.ActOther,
	"search_file_content": timeline.ActSearch,
	"task":                timeline.ActSubagent,
	"todo_read":           timeline.ActTodo,
	"todo_write":          timeline.ActTodo,
	"web_fetch":           timeline.ActWebFetch,
	"web_search":          timeline.ActWebFetch,
	"write_file":          timeline.ActFileWrite,
}

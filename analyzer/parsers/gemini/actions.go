package gemini

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps gemini-cli's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"ask_user":              timeline.ActAskUser,
	"codebase_investigator": timeline.ActSubagent,
	"complete_task":         timeline.ActSubagent,
	"delegate_to_agent":     timeline.ActSubagent,
	"edit":                  timeline.ActFileEdit,
	"glob":                  timeline.ActSearch,
	"google_web_search":     timeline.ActWebFetch,
	"grep":                  timeline.ActSearch,
	"grep_search":           timeline.ActSearch,
	"invoke_agent":          timeline.ActSubagent,
	"list_directory":        timeline.ActFileRead,
	"ls":                    timeline.ActFileRead,
	"mcp__*":                timeline.ActMCP,
	"read_file":             timeline.ActFileRead,
	"read_many_files":       timeline.ActFileRead,
	"replace":               timeline.ActFileEdit,
	"run_shell_command":     timeline.ActExecute,
	"save_memory":           timeline.ActOther,
	"search_file_content":   timeline.ActSearch,
	"web_fetch":             timeline.ActWebFetch,
	"write_file":            timeline.ActFileWrite,
	"write_todos":           timeline.ActTodo,
}

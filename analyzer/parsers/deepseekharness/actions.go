package deepseekharness

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names DeepSeek Harness records (as agentsview's
// deepseek_harness tests at 5386007 show them) to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"read_file":  timeline.ActFileRead,
	"write_file": timeline.ActFileWrite,
	"edit_file":  timeline.ActFileEdit,
	"bash":       timeline.ActExecute,
	"shell":      timeline.ActExecute,
	"grep":       timeline.ActSearch,
	"glob":       timeline.ActSearch,
	"web_search": timeline.ActWebFetch,
	"web_fetch":  timeline.ActWebFetch,
	"task":       timeline.ActSubagent,
	"todo_write": timeline.ActTodo,
}

package pi

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps pi's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"ShellSession": timeline.ActExecute,
	"bash":         timeline.ActExecute,
	"edit":         timeline.ActFileEdit,
	"find":         timeline.ActSearch,
	"grep":         timeline.ActSearch,
	"ls":           timeline.ActFileRead,
	"read":         timeline.ActFileRead,
	"task":         timeline.ActSubagent,
	"todo":         timeline.ActTodo,
	"webfetch":     timeline.ActWebFetch,
	"websearch":    timeline.ActWebFetch,
	"write":        timeline.ActFileWrite,
}

package pi

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps pi's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other". The
// capitalised names are little-coder v0.0.x's own tools (tools.py at
// v0.0.5).
var actions = map[string]timeline.Action{
	"Agent":          timeline.ActSubagent,
	"Bash":           timeline.ActExecute,
	"Edit":           timeline.ActFileEdit,
	"GetDiagnostics": timeline.ActOther,
	"Glob":           timeline.ActSearch,
	"Grep":           timeline.ActSearch,
	"NotebookEdit":   timeline.ActFileEdit,
	"Read":           timeline.ActFileRead,
	"SleepTimer":     timeline.ActOther,
	"TaskCreate":     timeline.ActTodo,
	"TaskGet":        timeline.ActTodo,
	"TaskList":       timeline.ActTodo,
	"TaskUpdate":     timeline.ActTodo,
	"WebFetch":       timeline.ActWebFetch,
	"WebSearch":      timeline.ActWebFetch,
	"Write":          timeline.ActFileWrite,
	"ShellSession":   timeline.ActExecute,
	"bash":           timeline.ActExecute,
	"edit":           timeline.ActFileEdit,
	"find":           timeline.ActSearch,
	"grep":           timeline.ActSearch,
	"ls":             timeline.ActFileRead,
	"read":           timeline.ActFileRead,
	"task":           timeline.ActSubagent,
	"todo":           timeline.ActTodo,
	"webfetch":       timeline.ActWebFetch,
	"websearch":      timeline.ActWebFetch,
	"write":          timeline.ActFileWrite,
}

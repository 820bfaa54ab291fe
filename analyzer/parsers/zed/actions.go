package zed

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps zed's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"*":                timeline.ActMCP,
	"copy_path":        timeline.ActFileWrite,
	"create_directory": timeline.ActFileWrite,
	"delete_path":      timeline.ActFileDelete,
	"diagnostics":      timeline.ActFileRead,
	"edit_file":        timeline.ActFileEdit,
	"fetch":            timeline.ActWebFetch,
	"find_path":        timeline.ActSearch,
	"grep":             timeline.ActSearch,
	"list_directory":   timeline.ActFileRead,
	"move_path":        timeline.ActFileDelete,
	"now":              timeline.ActOther,
	"open":             timeline.ActOther,
	"read_file":        timeline.ActFileRead,
	"spawn_agent":      timeline.ActSubagent,
	"terminal":         timeline.ActExecute,
	"thinking":         timeline.ActOther,
	"web_search":       timeline.ActWebFetch,
}

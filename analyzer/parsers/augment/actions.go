package augment

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Auggie's tool names (0.36.0: the tool_definitions of a
// chat-stream request) to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"launch-process":         timeline.ActExecute,
	"kill-process":           timeline.ActExecute,
	"read-process":           timeline.ActExecute,
	"write-process":          timeline.ActExecute,
	"list-processes":         timeline.ActExecute,
	"web-fetch":              timeline.ActWebFetch,
	"web-search":             timeline.ActWebFetch,
	"codebase-retrieval":     timeline.ActSearch,
	"search-untruncated":     timeline.ActSearch,
	"remove-files":           timeline.ActFileDelete,
	"save-file":              timeline.ActFileWrite,
	"apply_patch":            timeline.ActFileEdit,
	"str-replace-editor":     timeline.ActFileEdit,
	"view":                   timeline.ActFileRead,
	"view-range-untruncated": timeline.ActFileRead,
	"view-session":           timeline.ActOther,
	"view_tasklist":          timeline.ActTodo,
	"reorganize_tasklist":    timeline.ActTodo,
	"update_tasks":           timeline.ActTodo,
	"add_tasks":              timeline.ActTodo,
	"sub-agent*":             timeline.ActSubagent,
}

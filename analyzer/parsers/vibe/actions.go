package vibe

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Mistral Vibe's built-in tools (the classes of
// vibe/core/tools/builtins at ac8f1a0, named by BaseTool.get_name: the
// class name in snake case) to the one action vocabulary
// (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"bash":              timeline.ActExecute,
	"read":              timeline.ActFileRead,
	"skill":             timeline.ActFileRead,
	"write_file":        timeline.ActFileWrite,
	"edit":              timeline.ActFileEdit,
	"grep":              timeline.ActSearch,
	"todo":              timeline.ActTodo,
	"exit_plan_mode":    timeline.ActTodo,
	"task":              timeline.ActSubagent,
	"ask_user_question": timeline.ActAskUser,
	"web_fetch":         timeline.ActWebFetch,
	"web_search":        timeline.ActWebFetch,
}

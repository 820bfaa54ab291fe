package pydanticclai

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names CLAI 2.0's harness registers, as far as
// pydantic-ai-harness's capabilities name them, to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"bash":              timeline.ActExecute,
	"shell":             timeline.ActExecute,
	"read":              timeline.ActFileRead,
	"read_file":         timeline.ActFileRead,
	"write":             timeline.ActFileWrite,
	"write_file":        timeline.ActFileWrite,
	"edit":              timeline.ActFileEdit,
	"edit_file":         timeline.ActFileEdit,
	"grep":              timeline.ActSearch,
	"glob":              timeline.ActSearch,
	"web_fetch":         timeline.ActWebFetch,
	"web_search":        timeline.ActWebFetch,
	"ask_user_question": timeline.ActAskUser,
}

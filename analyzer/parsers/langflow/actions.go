package langflow

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names Langflow's agent records in a tool_use
// content block (the component tool's name, as the starter projects'
// tools give it) to the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"evaluate_expression": timeline.ActOther,
	"fetch_content":       timeline.ActWebFetch,
	"fetch_content_text":  timeline.ActWebFetch,
	"search":              timeline.ActWebFetch,
	"run_python_repl":     timeline.ActExecute,
	"execute_command":     timeline.ActExecute,
}

package ollama

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the desktop app's tool names (app/tools) to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"browser.*":  timeline.ActWebFetch,
	"web_fetch":  timeline.ActWebFetch,
	"web_search": timeline.ActWebFetch,
}

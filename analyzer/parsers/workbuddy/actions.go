package workbuddy

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names WorkBuddy records (its Claude-style
// built-ins, as kenn-io/agentsview's workbuddy tests at 5386007 show Bash,
// and the CodeBuddy family's file and search tools) to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"Bash":      timeline.ActExecute,
	"Read":      timeline.ActFileRead,
	"Write":     timeline.ActFileWrite,
	"Edit":      timeline.ActFileEdit,
	"MultiEdit": timeline.ActFileEdit,
	"Grep":      timeline.ActSearch,
	"Glob":      timeline.ActSearch,
	"LS":        timeline.ActFileRead,
	"WebFetch":  timeline.ActWebFetch,
	"WebSearch": timeline.ActWebFetch,
	"Task":      timeline.ActSubagent,
	"TodoWrite": timeline.ActTodo,
}

package cody

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Cody's agentic chat tools (vscode/src/chat/chat-view/
// tools/*.ts) and Deep Cody's context tool steps to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"run_terminal_command": timeline.ActExecute,
	"get_file":             timeline.ActFileRead,
	"code_search":          timeline.ActSearch,
	"get_diagnostic":       timeline.ActFileRead,
	"text_editor":          timeline.ActFileEdit,
	"terminal":             timeline.ActExecute,
	"cli":                  timeline.ActExecute,
	"file":                 timeline.ActFileRead,
	"search":               timeline.ActSearch,
	"web":                  timeline.ActWebFetch,
	"memory":               timeline.ActOther,
	"mcp_*":                timeline.ActMCP,
}

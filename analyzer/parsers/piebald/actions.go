package piebald

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the Piebald tool names seen in its app.db
// (RunTerminalCommand: a third-party hook reader of app.db; the others
// are the Claude-Code-style names kenn-io/agentsview 5386007 normalizes
// for it) to the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"RunTerminalCommand": timeline.ActExecute,
	"Bash":               timeline.ActExecute,
	"Read":               timeline.ActFileRead,
	"ReadFile":           timeline.ActFileRead,
	"Write":              timeline.ActFileWrite,
	"WriteFile":          timeline.ActFileWrite,
	"Edit":               timeline.ActFileEdit,
	"EditFile":           timeline.ActFileEdit,
	"Grep":               timeline.ActSearch,
	"Glob":               timeline.ActSearch,
	"WebFetch":           timeline.ActWebFetch,
	"WebSearch":          timeline.ActWebFetch,
	"Task":               timeline.ActSubagent,
	"SubAgent":           timeline.ActSubagent,
	"TodoWrite":          timeline.ActTodo,
	"mcp__*":             timeline.ActMCP,
}

package factorydroid

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps droid's tool names (0.225.2: the tool list a request
// declares and the deferred-tool reminder) to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"Execute":         timeline.ActExecute,
	"Read":            timeline.ActFileRead,
	"LS":              timeline.ActFileRead,
	"Grep":            timeline.ActSearch,
	"Glob":            timeline.ActSearch,
	"Create":          timeline.ActFileWrite,
	"Edit":            timeline.ActFileEdit,
	"MultiEdit":       timeline.ActFileEdit,
	"ApplyPatch":      timeline.ActFileEdit,
	"WebSearch":       timeline.ActWebFetch,
	"FetchUrl":        timeline.ActWebFetch,
	"Task":            timeline.ActSubagent,
	"TodoWrite":       timeline.ActTodo,
	"AskUser":         timeline.ActAskUser,
	"ToolSearch":      timeline.ActOther,
	"Skill":           timeline.ActOther,
	"ConnectorSearch": timeline.ActSearch,
	"mcp__*":          timeline.ActMCP,
}

package copilottools

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// Actions maps the Copilot agent runtime's tool names (Copilot CLI and Copilot
// Desktop, which runs the same runtime) to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var Actions = map[string]timeline.Action{
	"ask_user":            timeline.ActAskUser,
	"bash":                timeline.ActExecute,
	"create":              timeline.ActFileWrite,
	"edit":                timeline.ActFileEdit,
	"github-mcp-server-*": timeline.ActMCP,
	"glob":                timeline.ActSearch,
	"grep":                timeline.ActSearch,
	"insert":              timeline.ActFileEdit,
	"mcp__*":              timeline.ActMCP,
	"powershell":          timeline.ActExecute,
	"read_agent":          timeline.ActSubagent,
	"read_bash":           timeline.ActExecute,
	"read_powershell":     timeline.ActExecute,
	"report_intent":       timeline.ActOther,
	"stop_bash":           timeline.ActExecute,
	"stop_powershell":     timeline.ActExecute,
	"str_replace":         timeline.ActFileEdit,
	"str_replace_editor":  timeline.ActFileEdit,
	"task":                timeline.ActSubagent,
	"update_todo":         timeline.ActTodo,
	"view":                timeline.ActFileRead,
	"web_fetch":           timeline.ActWebFetch,
	"web_search":          timeline.ActWebFetch,
	"write_bash":          timeline.ActExecute,
	"write_powershell":    timeline.ActExecute,
}

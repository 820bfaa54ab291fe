package claudetranscript

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// Actions maps claude-code's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var Actions = map[string]timeline.Action{
	"Agent":                timeline.ActSubagent,
	"AskUserQuestion":      timeline.ActAskUser,
	"Bash":                 timeline.ActExecute,
	"BashOutput":           timeline.ActExecute,
	"Edit":                 timeline.ActFileEdit,
	"ExitPlanMode":         timeline.ActAskUser,
	"Glob":                 timeline.ActSearch,
	"Grep":                 timeline.ActSearch,
	"KillBash":             timeline.ActExecute,
	"KillShell":            timeline.ActExecute,
	"LS":                   timeline.ActFileRead,
	"ListMcpResourcesTool": timeline.ActMCP,
	"Monitor":              timeline.ActExecute,
	"MultiEdit":            timeline.ActFileEdit,
	"NotebookEdit":         timeline.ActFileEdit,
	"NotebookRead":         timeline.ActFileRead,
	"Read":                 timeline.ActFileRead,
	"ReadMcpResourceTool":  timeline.ActMCP,
	"SendMessage":          timeline.ActSubagent,
	"Skill":                timeline.ActOther,
	"SlashCommand":         timeline.ActOther,
	"Task":                 timeline.ActSubagent,
	"TaskCreate":           timeline.ActTodo,
	"TaskGet":              timeline.ActTodo,
	"TaskList":             timeline.ActTodo,
	"TaskOutput":           timeline.ActSubagent,
	"TaskUpdate":           timeline.ActTodo,
	"TodoRead":             timeline.ActTodo,
	"TodoWrite":            timeline.ActTodo,
	"ToolSearch":           timeline.ActSearch,
	"WebFetch":             timeline.ActWebFetch,
	"WebSearch":            timeline.ActWebFetch,
	"Write":                timeline.ActFileWrite,
	"mcp__*":               timeline.ActMCP,
}

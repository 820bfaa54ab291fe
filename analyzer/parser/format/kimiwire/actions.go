package kimiwire

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// Actions maps Kimi CLI's built-in tools (src/kimi_cli/tools at 4a550ef;
// "Task" is the subagent tool's name before "Agent") to the one action
// vocabulary (analyzer/docs/actions.md). MCP tools keep their server's
// names and are "other".
var Actions = map[string]timeline.Action{
	"Shell":           timeline.ActExecute,
	"ReadFile":        timeline.ActFileRead,
	"ReadMediaFile":   timeline.ActFileRead,
	"WriteFile":       timeline.ActFileWrite,
	"StrReplaceFile":  timeline.ActFileEdit,
	"Glob":            timeline.ActSearch,
	"Grep":            timeline.ActSearch,
	"FetchURL":        timeline.ActWebFetch,
	"SearchWeb":       timeline.ActWebFetch,
	"Agent":           timeline.ActSubagent,
	"Task":            timeline.ActSubagent,
	"AskUserQuestion": timeline.ActAskUser,
	"SetTodoList":     timeline.ActTodo,
	"EnterPlanMode":   timeline.ActTodo,
	"ExitPlanMode":    timeline.ActTodo,
	"Think":           timeline.ActOther,
	"SendDMail":       timeline.ActOther,
	"TaskList":        timeline.ActOther,
	"TaskOutput":      timeline.ActOther,
	"TaskStop":        timeline.ActOther,
}

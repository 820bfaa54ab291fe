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

// CodeActions maps Kimi Code's built-in tools (the profile's activeToolNames
// and tool snapshot of @moonshot-ai/kimi-code 2.1.0; docs/en/reference/
// tools.md of MoonshotAI/kimi-code at d723cc4) to the action vocabulary.
// MCP tools ("mcp__<server>__<tool>") are "other".
var CodeActions = map[string]timeline.Action{
	"Bash":            timeline.ActExecute,
	"Read":            timeline.ActFileRead,
	"ReadMediaFile":   timeline.ActFileRead,
	"Write":           timeline.ActFileWrite,
	"Edit":            timeline.ActFileEdit,
	"Glob":            timeline.ActSearch,
	"Grep":            timeline.ActSearch,
	"FetchURL":        timeline.ActWebFetch,
	"WebSearch":       timeline.ActWebFetch,
	"Agent":           timeline.ActSubagent,
	"AgentSwarm":      timeline.ActSubagent,
	"AskUserQuestion": timeline.ActAskUser,
	"TodoList":        timeline.ActTodo,
	"EnterPlanMode":   timeline.ActTodo,
	"ExitPlanMode":    timeline.ActTodo,
	"CreateGoal":      timeline.ActTodo,
	"GetGoal":         timeline.ActTodo,
	"SetGoalBudget":   timeline.ActTodo,
	"UpdateGoal":      timeline.ActTodo,
	"TaskList":        timeline.ActOther,
	"TaskOutput":      timeline.ActOther,
	"TaskStop":        timeline.ActOther,
	"WaitFor":         timeline.ActOther,
	"CronCreate":      timeline.ActOther,
	"CronList":        timeline.ActOther,
	"CronDelete":      timeline.ActOther,
	"Skill":           timeline.ActOther,
	"NotifyUser":      timeline.ActOther,
	"TowerInit":       timeline.ActOther,
	"TowerStatus":     timeline.ActOther,
	"TowerTeardown":   timeline.ActOther,
}

// WireActions is both tables: a wire.jsonl of the Kimi CLI layout may hold
// Kimi Code journal records (Kimi Work's runtime writes them), which Parse
// reads as ParseCode does. No tool name maps to two actions.
var WireActions = func() map[string]timeline.Action {
	m := map[string]timeline.Action{}
	for k, v := range Actions {
		m[k] = v
	}
	for k, v := range CodeActions {
		m[k] = v
	}
	return m
}()

package letta

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Letta Code's tool names (the tool set 0.32.18 declared in
// real-agents-4, and its Claude-style file tools) to the action vocabulary.
var actions = map[string]timeline.Action{
	"Bash":             timeline.ActExecute,
	"Monitor":          timeline.ActExecute,
	"TaskStop":         timeline.ActExecute,
	"Read":             timeline.ActFileRead,
	"LS":               timeline.ActFileRead,
	"Write":            timeline.ActFileWrite,
	"Edit":             timeline.ActFileEdit,
	"MultiEdit":        timeline.ActFileEdit,
	"Glob":             timeline.ActSearch,
	"Grep":             timeline.ActSearch,
	"WebFetch":         timeline.ActWebFetch,
	"WebSearch":        timeline.ActWebFetch,
	"Agent":            timeline.ActSubagent,
	"Task":             timeline.ActSubagent,
	"SendAgentMessage": timeline.ActSubagent,
	"AskUserQuestion":  timeline.ActAskUser,
	"TaskCreate":       timeline.ActTodo,
	"TaskGet":          timeline.ActTodo,
	"TaskList":         timeline.ActTodo,
	"TaskUpdate":       timeline.ActTodo,
	"TodoWrite":        timeline.ActTodo,
	"memory":           timeline.ActFileEdit, // the agent's own memory files
	"mcp__*":           timeline.ActMCP,
}

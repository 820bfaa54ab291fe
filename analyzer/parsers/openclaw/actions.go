package openclaw

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps OpenClaw's tool names (2026.9.6's core tool set, docs/tools
// of the release) to the action vocabulary.
var actions = map[string]timeline.Action{
	"exec":             timeline.ActExecute,
	"bash":             timeline.ActExecute,
	"process":          timeline.ActExecute, // background exec sessions: poll, write, kill
	"code_execution":   timeline.ActExecute,
	"terminal":         timeline.ActExecute,
	"read":             timeline.ActFileRead,
	"ls":               timeline.ActFileRead,
	"view_image":       timeline.ActFileRead,
	"write":            timeline.ActFileWrite,
	"edit":             timeline.ActFileEdit,
	"apply_patch":      timeline.ActFileEdit,
	"web_fetch":        timeline.ActWebFetch,
	"web_search":       timeline.ActWebFetch,
	"x_search":         timeline.ActWebFetch,
	"browser":          timeline.ActWebFetch,
	"memory_search":    timeline.ActSearch,
	"tool_search":      timeline.ActSearch,
	"tool_search_code": timeline.ActSearch,
	"sessions_spawn":   timeline.ActSubagent,
	"sessions_send":    timeline.ActSubagent,
	"sessions_yield":   timeline.ActSubagent,
	"subagents":        timeline.ActSubagent,
	"agents_list":      timeline.ActSubagent,
	"agents_wait":      timeline.ActSubagent,
	"ask_user":         timeline.ActAskUser,
	"create_goal":      timeline.ActTodo,
	"update_goal":      timeline.ActTodo,
	"get_goal":         timeline.ActTodo,
	"mcp__*":           timeline.ActMCP,
}

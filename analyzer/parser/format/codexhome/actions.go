package codexhome

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// Actions maps codex-cli's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var Actions = map[string]timeline.Action{
	"apply_patch":        timeline.ActFileEdit,
	"close_agent":        timeline.ActSubagent,
	"collab_tool_call":   timeline.ActSubagent,
	"command_execution":  timeline.ActExecute,
	"exec_command":       timeline.ActExecute,
	"file_change":        timeline.ActFileEdit,
	"grep_files":         timeline.ActSearch,
	"list_dir":           timeline.ActFileRead,
	"local_shell":        timeline.ActExecute,
	"mcp__*":             timeline.ActMCP,
	"mcp_tool_call":      timeline.ActMCP,
	"read_file":          timeline.ActFileRead,
	"request_user_input": timeline.ActAskUser,
	"send_input":         timeline.ActSubagent,
	"shell":              timeline.ActExecute,
	"shell_command":      timeline.ActExecute,
	"spawn_agent":        timeline.ActSubagent,
	"unified_exec":       timeline.ActExecute,
	"update_plan":        timeline.ActTodo,
	"view_image":         timeline.ActFileRead,
	"wait":               timeline.ActSubagent,
	"web_search":         timeline.ActWebFetch,
	"web_search_call":    timeline.ActWebFetch,
	"write_stdin":        timeline.ActExecute,
}

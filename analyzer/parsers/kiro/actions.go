package kiro

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the Q / Kiro CLI's built-in tools (crates/chat-cli/src/cli/
// chat/tools/tool_index.json) to the one action vocabulary
// (analyzer/docs/actions.md); an MCP tool is "<server>/<tool>"
// (MCP_SERVER_TOOL_DELIMITER).
var actions = map[string]timeline.Action{
	"execute_bash": timeline.ActExecute,
	"execute_cmd":  timeline.ActExecute,
	"fs_read":      timeline.ActFileRead,
	"fs_write":     timeline.ActFileWrite,
	"use_aws":      timeline.ActExecute,
	"gh_issue":     timeline.ActWebFetch,
	"report_issue": timeline.ActWebFetch,
	"thinking":     timeline.ActOther,
	"knowledge":    timeline.ActSearch,
	"introspect":   timeline.ActOther,
	"todo_list":    timeline.ActTodo,
	"delegate":     timeline.ActSubagent,
	"dummy":        timeline.ActOther,
	"*/*":          timeline.ActMCP,
}

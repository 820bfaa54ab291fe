package kiro

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the Q / Kiro CLI's built-in tools (crates/chat-cli/src/cli/
// chat/tools/tool_index.json) to the one action vocabulary
// (analyzer/docs/actions.md); an MCP tool is "<server>/<tool>"
// (MCP_SERVER_TOOL_DELIMITER). Kiro CLI 2.x renamed its tools (read,
// write, shell, glob, grep, web_fetch, web_search: the names in the
// .kiro/sessions/cli transcripts third-party readers show and
// kenn-io/agentsview 5386007 normalizes, internal/parser/kiro.go and
// taxonomy.go). The Kiro IDE's execution logs name actions replace,
// create and readCode (agentsview 5386007 kiro_ide.go).
var actions = map[string]timeline.Action{
	"replace":      timeline.ActFileEdit,
	"create":       timeline.ActFileWrite,
	"readCode":     timeline.ActFileRead,
	"read":         timeline.ActFileRead,
	"write":        timeline.ActFileWrite,
	"shell":        timeline.ActExecute,
	"glob":         timeline.ActSearch,
	"grep":         timeline.ActSearch,
	"web_fetch":    timeline.ActWebFetch,
	"web_search":   timeline.ActWebFetch,
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

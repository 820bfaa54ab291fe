package agentzero

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Agent Zero's tool names (tools/ and the plugins' tools/ at
// the commit read) and the log item types used when a heading names no
// tool to the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"a2a_chat":             timeline.ActSubagent,
	"behaviour_adjustment": timeline.ActOther,
	"browser":              timeline.ActWebFetch,
	"browser_agent":        timeline.ActWebFetch,
	"call_subordinate":     timeline.ActSubagent,
	"code_exe":             timeline.ActExecute,
	"code_execution_tool":  timeline.ActExecute,
	"document_query":       timeline.ActFileRead,
	"input":                timeline.ActExecute,
	"knowledge_tool":       timeline.ActSearch,
	"mcp":                  timeline.ActMCP,
	"memory_delete":        timeline.ActOther,
	"memory_forget":        timeline.ActOther,
	"memory_load":          timeline.ActSearch,
	"memory_save":          timeline.ActOther,
	"notify_user":          timeline.ActOther,
	"response":             timeline.ActOther,
	"scheduler":            timeline.ActTodo,
	"search_engine":        timeline.ActWebFetch,
	"skills_tool":          timeline.ActOther,
	"subagent":             timeline.ActSubagent,
	"text_editor":          timeline.ActFileEdit,
	"tool":                 timeline.ActOther,
	"vision_load":          timeline.ActFileRead,
	"wait":                 timeline.ActOther,
	"*.*":                  timeline.ActMCP,
}

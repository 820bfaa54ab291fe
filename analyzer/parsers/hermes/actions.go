package hermes

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Hermes Agent's tool names (tools/ registry) to the one
// action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"browser_*":      timeline.ActWebFetch,
	"clarify":        timeline.ActAskUser,
	"cronjob":        timeline.ActTodo,
	"delegate_task":  timeline.ActSubagent,
	"execute_code":   timeline.ActExecute,
	"mcp_*":          timeline.ActMCP,
	"memory":         timeline.ActOther,
	"patch":          timeline.ActFileEdit,
	"process":        timeline.ActExecute,
	"read_file":      timeline.ActFileRead,
	"search_files":   timeline.ActSearch,
	"session_search": timeline.ActSearch,
	"skill_manage":   timeline.ActOther,
	"skill_view":     timeline.ActFileRead,
	"skills_list":    timeline.ActOther,
	"terminal":       timeline.ActExecute,
	"todo":           timeline.ActTodo,
	"vision_analyze": timeline.ActFileRead,
	"web_extract":    timeline.ActWebFetch,
	"web_search":     timeline.ActWebFetch,
	"write_file":     timeline.ActFileWrite,
	"send_message":   timeline.ActOther,
	"text_to_speech": timeline.ActOther,
	"image_generate": timeline.ActOther,
}

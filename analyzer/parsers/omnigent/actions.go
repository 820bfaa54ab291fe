package omnigent

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps omnigent's built-in tools (the sys_* names of
// omnigent/tools/builtins at 79ee2e9) and the provider-native tool items
// it persists to the one action vocabulary (analyzer/docs/actions.md).
// Tools of a harness omnigent drives keep their own names and fall to
// "other" unless named here.
var actions = map[string]timeline.Action{
	"sys_os_shell":            timeline.ActExecute,
	"sys_os_read":             timeline.ActFileRead,
	"sys_os_write":            timeline.ActFileWrite,
	"sys_os_edit":             timeline.ActFileEdit,
	"sys_terminal_launch":     timeline.ActExecute,
	"sys_terminal_send":       timeline.ActExecute,
	"sys_terminal_read":       timeline.ActExecute,
	"sys_terminal_close":      timeline.ActExecute,
	"sys_session_create":      timeline.ActSubagent,
	"sys_session_send":        timeline.ActSubagent,
	"sys_session_close":       timeline.ActSubagent,
	"sys_call_async":          timeline.ActSubagent,
	"sys_agent_download":      timeline.ActWebFetch,
	"sys_add_policy":          timeline.ActOther,
	"sys_session_list":        timeline.ActOther,
	"sys_session_get_info":    timeline.ActOther,
	"sys_session_get_history": timeline.ActOther,
	"web_search_call":         timeline.ActWebFetch,
}

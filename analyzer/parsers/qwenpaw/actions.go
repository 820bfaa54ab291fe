package qwenpaw

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps QwenPaw's built-in tools (src/qwenpaw/agents/tools/__init__.py
// at agentscope-ai/QwenPaw dcbc894) to the one action vocabulary
// (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"execute_python_code":     timeline.ActExecute,
	"execute_shell_command":   timeline.ActExecute,
	"view_text_file":          timeline.ActFileRead,
	"read_file":               timeline.ActFileRead,
	"view_image":              timeline.ActFileRead,
	"view_video":              timeline.ActFileRead,
	"write_text_file":         timeline.ActFileWrite,
	"write_file":              timeline.ActFileWrite,
	"append_file":             timeline.ActFileEdit,
	"edit_file":               timeline.ActFileEdit,
	"grep_search":             timeline.ActSearch,
	"glob_search":             timeline.ActSearch,
	"browser_use":             timeline.ActWebFetch,
	"send_file_to_user":       timeline.ActOther,
	"desktop_screenshot":      timeline.ActOther,
	"get_current_time":        timeline.ActOther,
	"set_user_timezone":       timeline.ActOther,
	"get_token_usage":         timeline.ActOther,
	"delegate_external_agent": timeline.ActSubagent,
	"list_agents":             timeline.ActSubagent,
	"chat_with_agent":         timeline.ActSubagent,
	"submit_to_agent":         timeline.ActSubagent,
	"check_agent_task":        timeline.ActSubagent,
}

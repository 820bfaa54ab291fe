package antigravity

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Antigravity's planner tool calls and the tool step types
// the brain mirror names its results after (lower-cased) to the one action
// vocabulary (analyzer/docs/actions.md). Tool names also appear with a
// "default_api:" prefix.
var actions = map[string]timeline.Action{
	"run_command":                            timeline.ActExecute,
	"default_api:run_command":                timeline.ActExecute,
	"command_status":                         timeline.ActExecute,
	"send_command_input":                     timeline.ActExecute,
	"read_terminal":                          timeline.ActExecute,
	"view_file":                              timeline.ActFileRead,
	"default_api:view_file":                  timeline.ActFileRead,
	"view_file_outline":                      timeline.ActFileRead,
	"view_code_item":                         timeline.ActFileRead,
	"list_dir":                               timeline.ActFileRead,
	"list_directory":                         timeline.ActFileRead,
	"write_to_file":                          timeline.ActFileWrite,
	"default_api:write_to_file":              timeline.ActFileWrite,
	"replace_file_content":                   timeline.ActFileEdit,
	"default_api:replace_file_content":       timeline.ActFileEdit,
	"multi_replace_file_content":             timeline.ActFileEdit,
	"default_api:multi_replace_file_content": timeline.ActFileEdit,
	"code_action":                            timeline.ActFileEdit,
	"grep_search":                            timeline.ActSearch,
	"find_by_name":                           timeline.ActSearch,
	"find":                                   timeline.ActSearch,
	"codebase_search":                        timeline.ActSearch,
	"search_web":                             timeline.ActWebFetch,
	"read_url_content":                       timeline.ActWebFetch,
	"browser_subagent":                       timeline.ActSubagent,
	"mcp_tool":                               timeline.ActMCP,
	"mcp_*":                                  timeline.ActMCP,
	"generic":                                timeline.ActOther,
}

package clinetask

import (
	"regexp"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// RooActions maps the tool names of Roo-flavored task files (Roo Code and
// its forks, PearAI's pearai-roo-cline) to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var RooActions = map[string]timeline.Action{
	"access_mcp_resource":        timeline.ActMCP,
	"appliedDiff":                timeline.ActFileEdit,
	"apply_diff":                 timeline.ActFileEdit,
	"apply_patch":                timeline.ActFileEdit,
	"ask_followup_question":      timeline.ActAskUser,
	"attempt_completion":         timeline.ActOther,
	"browser_action":             timeline.ActWebFetch,
	"codebaseSearch":             timeline.ActSearch,
	"codebase_search":            timeline.ActSearch,
	"editedExistingFile":         timeline.ActFileEdit,
	"execute_command":            timeline.ActExecute,
	"fetch_instructions":         timeline.ActOther,
	"generate_image":             timeline.ActOther,
	"insertContent":              timeline.ActFileEdit,
	"insert_content":             timeline.ActFileEdit,
	"listCodeDefinitionNames":    timeline.ActFileRead,
	"listFilesRecursive":         timeline.ActFileRead,
	"listFilesTopLevel":          timeline.ActFileRead,
	"list_code_definition_names": timeline.ActFileRead,
	"list_files":                 timeline.ActFileRead,
	"newFileCreated":             timeline.ActFileWrite,
	"newTask":                    timeline.ActSubagent,
	"new_task":                   timeline.ActSubagent,
	"readFile":                   timeline.ActFileRead,
	"read_file":                  timeline.ActFileRead,
	"run_slash_command":          timeline.ActOther,
	"searchAndReplace":           timeline.ActFileEdit,
	"searchFiles":                timeline.ActSearch,
	"search_and_replace":         timeline.ActFileEdit,
	"search_files":               timeline.ActSearch,
	"switchMode":                 timeline.ActOther,
	"switch_mode":                timeline.ActOther,
	"updateTodoList":             timeline.ActTodo,
	"update_todo_list":           timeline.ActTodo,
	"use_mcp_tool":               timeline.ActMCP,
	"write_to_file":              timeline.ActFileWrite,
}

// RooPermKey selects the auto-approval keys of Roo Code's global state, and
// of its forks' (PearAI's pearai-roo-cline): autoApprovalEnabled,
// alwaysAllow*, allowedCommands, deniedCommands, alwaysApproveResubmit,
// allowedMaxRequests, allowedMaxCost, mode.
var RooPermKey = regexp.MustCompile(`^(autoApprovalEnabled|alwaysAllow|alwaysApprove|allowedCommands|deniedCommands|allowedMaxRequests|allowedMaxCost|requestDelaySeconds|followupAutoApproveTimeoutMs|mode$|commandExecutionTimeout|commandTimeoutAllowlist|preventCompletionWithOpenTodos)`)

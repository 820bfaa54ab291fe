package warp

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the ToolCall oneof names of task.proto (warp-proto-apis at
// 00f7916) to the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"run_shell_command":                      timeline.ActExecute,
	"write_to_long_running_shell_command":    timeline.ActExecute,
	"read_shell_command_output":              timeline.ActExecute,
	"transfer_shell_command_control_to_user": timeline.ActExecute,
	"use_computer":                           timeline.ActExecute,
	"request_computer_use":                   timeline.ActAskUser,
	"search_codebase":                        timeline.ActSearch,
	"grep":                                   timeline.ActSearch,
	"file_glob":                              timeline.ActSearch,
	"file_glob_v2":                           timeline.ActSearch,
	"read_files":                             timeline.ActFileRead,
	"read_documents":                         timeline.ActFileRead,
	"read_skill":                             timeline.ActFileRead,
	"apply_file_diffs":                       timeline.ActFileEdit,
	"edit_documents":                         timeline.ActFileEdit,
	"create_documents":                       timeline.ActFileWrite,
	"read_mcp_resource":                      timeline.ActMCP,
	"call_mcp_tool":                          timeline.ActMCP,
	"suggest_plan":                           timeline.ActTodo,
	"suggest_create_plan":                    timeline.ActTodo,
	"subagent":                               timeline.ActSubagent,
	"start_agent":                            timeline.ActSubagent,
	"send_message_to_agent":                  timeline.ActSubagent,
	"fetch_conversation":                     timeline.ActSubagent,
	"web_search":                             timeline.ActWebFetch,
	"web_fetch":                              timeline.ActWebFetch,
	"server":                                 timeline.ActOther,
	"suggest_new_conversation":               timeline.ActOther,
	"suggest_prompt":                         timeline.ActOther,
	"open_code_review":                       timeline.ActOther,
	"init_project":                           timeline.ActOther,
	"insert_review_comments":                 timeline.ActOther,
	"cancel":                                 timeline.ActOther, // a result that says the call was not run
}

// toolNames are the ToolCall.tool oneof fields by number.
var toolNames = map[protoNum]string{
	2: "run_shell_command", 3: "search_codebase", 4: "server", 5: "read_files",
	6: "apply_file_diffs", 7: "suggest_plan", 8: "suggest_create_plan", 9: "grep",
	10: "file_glob", 11: "read_mcp_resource", 12: "call_mcp_tool",
	13: "write_to_long_running_shell_command", 14: "suggest_new_conversation",
	15: "file_glob_v2", 16: "suggest_prompt", 17: "open_code_review", 18: "init_project",
	19: "subagent", 20: "read_documents", 21: "edit_documents", 22: "create_documents",
	23: "read_shell_command_output", 24: "use_computer", 25: "insert_review_comments",
	26: "read_skill", 27: "request_computer_use", 28: "fetch_conversation",
	29: "start_agent", 30: "send_message_to_agent", 31: "transfer_shell_command_control_to_user",
}

// resultNames are the ToolCallResult.result oneof fields by number (14 is
// cancel: the call was not run).
var resultNames = map[protoNum]string{
	2: "run_shell_command", 3: "search_codebase", 4: "server", 5: "read_files",
	6: "apply_file_diffs", 7: "suggest_plan", 8: "suggest_create_plan", 9: "grep",
	10: "file_glob", 15: "read_mcp_resource", 16: "call_mcp_tool",
	17: "write_to_long_running_shell_command", 18: "suggest_new_conversation",
	19: "file_glob_v2", 20: "suggest_prompt", 21: "open_code_review", 22: "init_project",
	23: "subagent", 24: "read_documents", 25: "edit_documents", 26: "create_documents",
	27: "read_shell_command_output", 28: "use_computer", 29: "insert_review_comments",
	30: "read_skill", 31: "request_computer_use", 32: "fetch_conversation",
	33: "start_agent", 34: "send_message_to_agent", 35: "transfer_shell_command_control_to_user",
}

// otherKinds are the Message oneof fields that give a system row, by
// number, with the label the row names.
var otherKinds = map[protoNum]string{
	9: "system query (sent by the client, not typed)", 10: "to-do list updated",
	16: "conversation summarized", 17: "code review", 18: "review comments updated",
	21: "debug output", 22: "artifact", 23: "skill invoked",
	24: "messages received from other agents", 25: "model used", 26: "events from other agents",
}

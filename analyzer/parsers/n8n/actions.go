package n8n

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tools n8n's rows name to the one action vocabulary
// (analyzer/docs/actions.md): the computer-use gateway's tools
// (packages/@n8n/computer-use/src/logger.ts FILESYSTEM_TOOLS, shell_execute,
// screen_*, mouse_*, keyboard_*, browser_*) and the AI tool sub-nodes of
// an execution, named by their node type's last part
// (@n8n/n8n-nodes-langchain.toolCode -> toolCode).
var actions = map[string]timeline.Action{
	"read_file":          timeline.ActFileRead,
	"list_files":         timeline.ActFileRead,
	"get_file_tree":      timeline.ActFileRead,
	"search_files":       timeline.ActSearch,
	"write_file":         timeline.ActFileWrite,
	"edit_file":          timeline.ActFileEdit,
	"create_directory":   timeline.ActFileWrite,
	"copy_file":          timeline.ActFileWrite,
	"delete":             timeline.ActFileDelete,
	"move":               timeline.ActFileDelete,
	"shell_execute":      timeline.ActExecute,
	"screen_*":           timeline.ActOther,
	"mouse_*":            timeline.ActOther,
	"keyboard_*":         timeline.ActOther,
	"browser_*":          timeline.ActWebFetch,
	"toolCode":           timeline.ActExecute,
	"toolExecuteCommand": timeline.ActExecute,
	"toolHttpRequest":    timeline.ActWebFetch,
	"httpRequestTool":    timeline.ActWebFetch,
	"toolSerpApi":        timeline.ActWebFetch,
	"toolWikipedia":      timeline.ActWebFetch,
	"toolSearXng":        timeline.ActWebFetch,
	"toolWorkflow":       timeline.ActSubagent,
	"agentTool":          timeline.ActSubagent,
	"mcpClientTool":      timeline.ActMCP,
	"toolCalculator":     timeline.ActOther,
	"toolThink":          timeline.ActTodo,
}

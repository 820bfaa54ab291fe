package forge

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Forge's tools (ToolCatalog in
// crates/forge_domain/src/tools/catalog.rs at 54cecac, snake_case names) to
// the one action vocabulary (analyzer/docs/actions.md). MCP tools are
// registered as mcp_<server>_tool_<name>; the agents (forge, sage, muse)
// are tools too, called by their id.
var actions = map[string]timeline.Action{
	"read":        timeline.ActFileRead,
	"write":       timeline.ActFileWrite,
	"patch":       timeline.ActFileEdit,
	"multi_patch": timeline.ActFileEdit,
	"undo":        timeline.ActFileEdit,
	"remove":      timeline.ActFileDelete,
	"fs_search":   timeline.ActSearch,
	"sem_search":  timeline.ActSearch,
	"shell":       timeline.ActExecute,
	"fetch":       timeline.ActWebFetch,
	"followup":    timeline.ActAskUser,
	"plan":        timeline.ActTodo,
	"todo_write":  timeline.ActTodo,
	"todo_read":   timeline.ActTodo,
	"skill":       timeline.ActFileRead,
	"task":        timeline.ActSubagent,
	"forge":       timeline.ActSubagent,
	"sage":        timeline.ActSubagent,
	"muse":        timeline.ActSubagent,
	"mcp_*":       timeline.ActMCP,
}

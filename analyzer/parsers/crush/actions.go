package crush

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps crush's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"agent":         timeline.ActSubagent,
	"agentic_fetch": timeline.ActWebFetch,
	"bash":          timeline.ActExecute,
	"diagnostics":   timeline.ActOther,
	"download":      timeline.ActWebFetch,
	"edit":          timeline.ActFileEdit,
	"fetch":         timeline.ActWebFetch,
	"glob":          timeline.ActSearch,
	"grep":          timeline.ActSearch,
	"job_kill":      timeline.ActExecute,
	"job_output":    timeline.ActExecute,
	"ls":            timeline.ActFileRead,
	"mcp_*":         timeline.ActMCP,
	"multiedit":     timeline.ActFileEdit,
	"shell":         timeline.ActExecute,
	"sourcegraph":   timeline.ActSearch,
	"todos":         timeline.ActTodo,
	"view":          timeline.ActFileRead,
	"web_search":    timeline.ActWebFetch,
	"write":         timeline.ActFileWrite,
}

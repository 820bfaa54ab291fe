package flowise

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names of Flowise's built-in tool nodes
// (packages/components/nodes/tools/*, the name each tool class gives, at
// FlowiseAI/Flowise@ababf4c) to the one action vocabulary
// (analyzer/docs/actions.md). A custom tool (the tool table) or an MCP
// server's tool is named by its author and reads "other".
var actions = map[string]timeline.Action{
	"calculator":          timeline.ActOther,
	"current_date_time":   timeline.ActOther,
	"json_path_extractor": timeline.ActOther,
	"requests_get":        timeline.ActWebFetch,
	"requests_post":       timeline.ActWebFetch,
	"requests_put":        timeline.ActWebFetch,
	"requests_delete":     timeline.ActWebFetch,
	"web_browser":         timeline.ActWebFetch,
	"web_scraper_tool":    timeline.ActWebFetch,
	"serper":              timeline.ActWebFetch,
	"chatflow_tool":       timeline.ActSubagent,
	"agentflow_tool":      timeline.ActSubagent,
	// An Agentflow Tool node names its tool by the tool node's name (this.name).
	"currentDateTime": timeline.ActOther,
	"requestsGet":     timeline.ActWebFetch,
	"requestsPost":    timeline.ActWebFetch,
	"requestsPut":     timeline.ActWebFetch,
	"requestsDelete":  timeline.ActWebFetch,
	"webBrowser":      timeline.ActWebFetch,
	"webScraperTool":  timeline.ActWebFetch,
	"ChatflowTool":    timeline.ActSubagent,
	"agentAsTool":     timeline.ActSubagent,
}

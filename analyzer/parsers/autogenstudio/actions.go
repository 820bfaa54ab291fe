package autogenstudio

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names of AutoGen Studio's gallery tools
// (autogenstudio/gallery/tools: calculator, fetch_webpage, bing_search,
// google_search, generate_image) and the code executor to the one action
// vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"calculator":     timeline.ActOther,
	"fetch_webpage":  timeline.ActWebFetch,
	"bing_search":    timeline.ActWebFetch,
	"google_search":  timeline.ActWebFetch,
	"generate_image": timeline.ActOther,
	"code_execution": timeline.ActExecute,
}

package cortex

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names Cortex Code records (as kenn-io/agentsview's
// cortex.go at 5386007 names them) to the one action vocabulary
// (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"bash":                  timeline.ActExecute,
	"snowflake_sql_execute": timeline.ActExecute,
	"read":                  timeline.ActFileRead,
	"write":                 timeline.ActFileWrite,
	"edit":                  timeline.ActFileEdit,
	"grep":                  timeline.ActSearch,
	"glob":                  timeline.ActSearch,
	"web_fetch":             timeline.ActWebFetch,
}

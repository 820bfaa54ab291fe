package grok

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the Grok Build tool names its source names
// (xai-org/grok-build @19d42e3: xai-grok-agent/src/builder.rs for
// run_terminal_cmd, search_replace, read_file, grep and task; the
// server-side web_search, x_search and code_interpreter of
// backend_tool_call rows as agentsview's grok parser names them) to the
// one action vocabulary (analyzer/docs/actions.md); every other tool is
// "other".
var actions = map[string]timeline.Action{
	"read_file":        timeline.ActFileRead,
	"search_replace":   timeline.ActFileEdit,
	"grep":             timeline.ActSearch,
	"run_terminal_cmd": timeline.ActExecute,
	"task":             timeline.ActSubagent,
	"web_search":       timeline.ActWebFetch,
	"x_search":         timeline.ActWebFetch,
	"code_interpreter": timeline.ActExecute,
}

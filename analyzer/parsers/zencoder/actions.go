package zencoder

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the tool names Zencoder records (its Claude-style built-ins
// and its subagent tools, as kenn-io/agentsview's zencoder tests at
// 5386007 show them) to the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"Bash":                                timeline.ActExecute,
	"Read":                                timeline.ActFileRead,
	"Write":                               timeline.ActFileWrite,
	"Edit":                                timeline.ActFileEdit,
	"Grep":                                timeline.ActSearch,
	"Glob":                                timeline.ActSearch,
	"WebFetch":                            timeline.ActWebFetch,
	"Zencoder_subagent__ZencoderSubagent": timeline.ActSubagent,
	"mcp__zen_subagents__spawn_subagent":  timeline.ActSubagent,
}

package crewai

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the names of crewai_tools' common tools (the name each
// BaseTool gives, which the agent writes after "Action:") to the one
// action vocabulary (analyzer/docs/actions.md). TaskOutput's tool messages
// keep no tool name, so the tool_result rows read from them name none and
// read "other"; the table is for rows that name a tool.
var actions = map[string]timeline.Action{
	"Search the internet with Serper": timeline.ActWebFetch,
	"Read website content":            timeline.ActWebFetch,
	"Scrape website content":          timeline.ActWebFetch,
	"Read a file's content":           timeline.ActFileRead,
	"List files in directory":         timeline.ActFileRead,
	"File Writer Tool":                timeline.ActFileWrite,
	"Code Interpreter":                timeline.ActExecute,
}

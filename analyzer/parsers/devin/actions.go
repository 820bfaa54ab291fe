package devin

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the Devin CLI tool names its transcripts and message
// nodes carry (the names kenn-io/agentsview 5386007's Devin tests use:
// shell_command, read_file, edit_file; the rest by the same pattern) to
// the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"shell_command": timeline.ActExecute,
	"shell":         timeline.ActExecute,
	"read_file":     timeline.ActFileRead,
	"write_file":    timeline.ActFileWrite,
	"edit_file":     timeline.ActFileEdit,
	"grep":          timeline.ActSearch,
	"glob":          timeline.ActSearch,
	"web_fetch":     timeline.ActWebFetch,
	"web_search":    timeline.ActWebFetch,
	"mcp__*":        timeline.ActMCP,
}

package gptme

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps gptme's tool block types (gptme/tools/*.py at d27f98d) to
// the one action vocabulary (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"shell":          timeline.ActExecute,
	"ipython":        timeline.ActExecute,
	"python":         timeline.ActExecute,
	"py":             timeline.ActExecute,
	"tmux":           timeline.ActExecute,
	"computer":       timeline.ActExecute,
	"gh":             timeline.ActExecute,
	"save":           timeline.ActFileWrite,
	"append":         timeline.ActFileEdit,
	"patch":          timeline.ActFileEdit,
	"patch_many":     timeline.ActFileEdit,
	"patch_anchored": timeline.ActFileEdit,
	"hashline_edit":  timeline.ActFileEdit,
	"morph":          timeline.ActFileEdit,
	"read":           timeline.ActFileRead,
	"view_anchored":  timeline.ActFileRead,
	"screenshot":     timeline.ActFileRead,
	"vision":         timeline.ActFileRead,
	"browser":        timeline.ActWebFetch,
	"rag":            timeline.ActSearch,
	"chats":          timeline.ActSearch,
	"lessons":        timeline.ActSearch,
	"todo":           timeline.ActTodo,
	"progress":       timeline.ActTodo,
	"subagent":       timeline.ActSubagent,
	"mcp":            timeline.ActMCP,
	"clarify":        timeline.ActAskUser,
	"choice":         timeline.ActAskUser,
	"form":           timeline.ActAskUser,
	"elicit":         timeline.ActAskUser,
	"complete":       timeline.ActOther,
	"restart":        timeline.ActOther,
	"vent":           timeline.ActOther,
}

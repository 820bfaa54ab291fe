package opencode

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps opencode's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"*_*":             timeline.ActMCP,
	"apply_patch":     timeline.ActFileEdit,
	"bash":            timeline.ActExecute,
	"codesearch":      timeline.ActSearch,
	"edit":            timeline.ActFileEdit,
	"edit_file":       timeline.ActFileEdit,
	"execute_command": timeline.ActExecute,
	"glob":            timeline.ActSearch,
	"grep":            timeline.ActSearch,
	"invalid":         timeline.ActOther,
	"list":            timeline.ActFileRead,
	"lsp":             timeline.ActSearch,
	"multiedit":       timeline.ActFileEdit,
	"patch":           timeline.ActFileEdit,
	"question":        timeline.ActAskUser,
	"read":            timeline.ActFileRead,
	"read_file":       timeline.ActFileRead,
	"shell":           timeline.ActExecute,
	"skill":           timeline.ActOther,
	"task":            timeline.ActSubagent,
	"todoread":        timeline.ActTodo,
	"todowrite":       timeline.ActTodo,
	"webfetch":        timeline.ActWebFetch,
	"websearch":       timeline.ActWebFetch,
	"write":           timeline.ActFileWrite,
	"write_to_file":   timeline.ActFileWrite,
}

// zcodeActions is actions plus the capitalised names of the
// Anthropic-style tool_use blocks older ZCode builds wrote (agentsview
// 5386007 zcode_test.go: Read).
var zcodeActions = func() map[string]timeline.Action {
	m := map[string]timeline.Action{"Read": timeline.ActFileRead}
	for k, v := range actions {
		m[k] = v
	}
	return m
}()

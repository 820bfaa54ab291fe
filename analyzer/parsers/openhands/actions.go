package openhands

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps the OpenHands SDK's tool names (openhands-tools and the
// SDK built-ins at the commit read) to the one action vocabulary
// (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"apply_patch":               timeline.ActFileEdit,
	"browser_*":                 timeline.ActWebFetch,
	"delegate":                  timeline.ActSubagent,
	"execute_bash":              timeline.ActExecute,
	"file_editor":               timeline.ActFileEdit,
	"finish":                    timeline.ActOther,
	"glob":                      timeline.ActSearch,
	"grep":                      timeline.ActSearch,
	"inspect_image_with_vision": timeline.ActFileRead,
	"invoke_skill":              timeline.ActOther,
	"planning_file_editor":      timeline.ActFileEdit,
	"str_replace_editor":        timeline.ActFileEdit,
	"switch_llm":                timeline.ActOther,
	"task":                      timeline.ActSubagent,
	"task_tracker":              timeline.ActTodo,
	"terminal":                  timeline.ActExecute,
	"think":                     timeline.ActOther,
	"tom_consult":               timeline.ActOther,
}

package goose

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps goose's tool names to the one action vocabulary
// (analyzer/docs/actions.md); a tool it does not name is "other".
var actions = map[string]timeline.Action{
	"*__*":                                  timeline.ActMCP,
	"browser__*":                            timeline.ActWebFetch,
	"computercontroller__automation_script": timeline.ActExecute,
	"computercontroller__cache":             timeline.ActOther,
	"computercontroller__computer_control":  timeline.ActExecute,
	"computercontroller__web_scrape":        timeline.ActWebFetch,
	"computercontroller__web_search":        timeline.ActWebFetch,
	"developer__image_processor":            timeline.ActFileRead,
	"developer__list_windows":               timeline.ActOther,
	"developer__screen_capture":             timeline.ActOther,
	"developer__shell":                      timeline.ActExecute,
	"developer__text_editor":                timeline.ActFileEdit,
	"dynamic_task__create_task":             timeline.ActSubagent,
	"memory__*":                             timeline.ActOther,
	"platform__list_resources":              timeline.ActMCP,
	"platform__manage_extensions":           timeline.ActOther,
	"platform__read_resource":               timeline.ActMCP,
	"platform__search_available_extensions": timeline.ActOther,
	"shell":                                 timeline.ActExecute,
	"subagent__execute_task":                timeline.ActSubagent,
	"text_editor":                           timeline.ActFileEdit,
	"todo__*":                               timeline.ActTodo,
}

package shelley

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Shelley's tools (claudetool at boldsoftware/shelley
// a38c350: the Name of each llm.Tool) to the one action vocabulary
// (analyzer/docs/actions.md).
var actions = map[string]timeline.Action{
	"bash":           timeline.ActExecute,
	"shell":          timeline.ActExecute,
	"patch":          timeline.ActFileEdit,
	"apply_patch":    timeline.ActFileEdit,
	"keyword_search": timeline.ActSearch,
	"read_image":     timeline.ActFileRead,
	"change_dir":     timeline.ActOther,
	"browser":        timeline.ActWebFetch,
	"web_search":     timeline.ActWebFetch,
	"subagent":       timeline.ActSubagent,
	"llm_one_shot":   timeline.ActOther,
	"output_iframe":  timeline.ActOther,
}

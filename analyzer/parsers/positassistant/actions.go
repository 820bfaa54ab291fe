package positassistant

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Posit Assistant's tool names to the one action vocabulary
// (analyzer/docs/actions.md). Posit Assistant's source is not public; the
// names are those its stored transcripts show (kenn-io/agentsview
// 5386007 testdata/posit-assistant). Other names read "other".
var actions = map[string]timeline.Action{
	"read": timeline.ActFileRead,
}

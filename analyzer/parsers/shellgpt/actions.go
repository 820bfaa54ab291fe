package shellgpt

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps ShellGPT's bundled functions (sgpt/llm_functions) to the
// one action vocabulary (analyzer/docs/actions.md); a user function it
// does not name is "other".
var actions = map[string]timeline.Action{
	"execute_shell_command": timeline.ActExecute,
	"apple_script":          timeline.ActExecute,
}

package codebuff

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// actions maps Codebuff's tools (CodebuffAI/codebuff @da0d571
// common/src/tools/params/tool/*.ts, the tool names in snake case) to the
// one action vocabulary (analyzer/docs/actions.md); an agent block's row is
// "agent:<agent type>"; other tools are "other".
var actions = map[string]timeline.Action{
	"read_files":           timeline.ActFileRead,
	"read_docs":            timeline.ActWebFetch,
	"write_file":           timeline.ActFileWrite,
	"str_replace":          timeline.ActFileEdit,
	"code_search":          timeline.ActSearch,
	"find_files":           timeline.ActSearch,
	"run_terminal_command": timeline.ActExecute,
	"web_search":           timeline.ActWebFetch,
	"create_plan":          timeline.ActTodo,
	"add_subgoal":          timeline.ActTodo,
	"update_subgoal":       timeline.ActTodo,
	"spawn_agents":         timeline.ActSubagent,
	"spawn_agents_async":   timeline.ActSubagent,
	"spawn_agent_inline":   timeline.ActSubagent,
	"agent:*":              timeline.ActSubagent, // an agent block, by its agent type
}

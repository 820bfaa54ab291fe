package kimicli

import (
	"context"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/kimiwire"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "kimi-cli"

// maxWhole bounds the small JSON files read whole (kimi.json, state.json).
const maxWhole = kimiwire.MaxWhole

// Parsers returns the Kimi CLI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "kimi-cli/wire", Agent: agentName, Version: 4, Actions: kimiwire.WireActions,
			Targets: []string{"sessions"}, Names: []string{"wire.jsonl"},
			Doc: "sessions/<work dir md5>/<session>/wire.jsonl and subagents/<agent>/wire.jsonl: typed prompts (TurnBegin, SteerInput, /btw), replies and thinking, tool calls and results by call id, approval requests and decisions, questions and answers, hooks, compaction, retries, notifications, plans, token usage per step; subagent events",
		}, parseWire),
		parser.New(parser.Spec{
			ID: "kimi-cli/state", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-state"}, Names: []string{"state.json"},
			Doc: "sessions/*/*/state.json: the session's approval state (yolo, afk, actions approved for the session), title, archive, plan mode, extra directories and to-dos, at the file's mtime",
		}, parseState),
		parser.New(parser.Spec{
			ID: "kimi-cli/work-dirs", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"work-dirs"}, Names: []string{"kimi.json"},
			Doc: "kimi.json: every work directory Kimi CLI ran in, its sessions folder (md5 of the path) and last session, at the file's mtime",
		}, parseWorkDirs),
		parser.New(parser.Spec{
			ID: "kimi-cli/user-history", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"user-history", "code-user-history"}, Names: []string{"*.jsonl"},
			Doc: "user-history/<work dir md5>.jsonl (~/.kimi and ~/.kimi-code): the shell's prompt history ({content} lines, no time), user rows (secondary)",
			Secondary: &parser.Secondary{
				Window:    0,
				TurnTypes: []timeline.TurnType{timeline.User},
				Basis:     "src/kimi_cli/ui/shell/prompt.py appends {content} with no time or session; pairs with the wire's TurnBegin rows by text alone",
			},
		}, parseUserHistory),
		parser.New(parser.Spec{
			ID: "kimi-cli/code-wire", Agent: agentName, Version: 7, Actions: codeActions,
			Targets: []string{"code-sessions"}, Names: []string{"wire.jsonl"},
			Doc: "Kimi Code ~/.kimi-code/sessions/<workDirKey>/<session>/agents/<agent>/wire.jsonl: typed prompts (turn.prompt, turn.steer; other origins and injected context as system rows), replies and thinking, tool calls with arguments and results by call id, approval requests and decisions, questions and answers, subagents (spawned, completed; a subagent's own wire is its session under the parent), permission modes, model binds and switches, token usage per model call with its model, retries, cancelled and failed turns, compaction, clear and undo (earlier rows kept), file-history checkpoints, plans, goals, scheduled and background tasks, MCP discovery",
		}, parseCodeWire),
		parser.New(parser.Spec{
			ID: "kimi-cli/code-state", Agent: agentName, Version: 1, Actions: codeActions,
			Targets: []string{"code-session-state"}, Names: []string{"state.json"},
			Doc: "Kimi Code sessions/*/*/state.json: the session's creation and last update (title, last turn's outcome, archive, fork origin, a copy of the last prompt), its subagent instances",
		}, parseCodeState),
		parser.New(parser.Spec{
			ID: "kimi-cli/code-index", Agent: agentName, Version: 1, Actions: codeActions,
			Targets: []string{"code-session-index"}, Names: []string{"session_index.jsonl"},
			Doc: "Kimi Code session_index.jsonl: every session the CLI indexed with its work directory and folder, at the file's mtime",
		}, parseCodeIndex),
		parser.New(parser.Spec{
			ID: "kimi-cli/code-workspaces", Agent: agentName, Version: 1, Actions: codeActions,
			Targets: []string{"code-workspaces"}, Names: []string{"workspaces.json"},
			Doc: "Kimi Code workspaces.json: each workspace's root, creation and last opening, and the deleted workspace ids",
		}, parseCodeWorkspaces),
		parser.New(parser.Spec{
			ID: "kimi-cli/code-trust", Agent: agentName, Version: 1, Actions: codeActions,
			Targets: []string{"code-workspace-trust"},
			Doc:     "Kimi Code workspace-trust/<workspace id>: the folder the person trusted at the TUI's \"Trust this folder?\" (project MCP servers enabled), a permission setting row at trustedAt",
		}, parseCodeTrust),
	}
}
func parseWire(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return kimiwire.Parse(ctx, in, out, kimiwire.Options{SubagentDir: "subagents"})
}

// actions is Kimi CLI's tool table (kimiwire.Actions); codeActions Kimi
// Code's (kimiwire.CodeActions).
var (
	actions     = kimiwire.Actions
	codeActions = kimiwire.CodeActions
)

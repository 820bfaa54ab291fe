package cline

import (
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Cline.
const Agent = "cline"

// Parsers returns the Cline parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "cline/ui-messages", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"tasks", "cli-tasks", "task-files", "cli-task-files"}, Names: []string{"ui_messages.json"},
			Doc: "tasks/<id>/ui_messages.json (ClineMessage array, preferred): prompts, replies, reasoning, tool and command calls with their output, errors and other say/ask records as system rows; a cut array is read as far as it goes",
		}, parseUIMessages),
		parser.New(parser.Spec{
			ID: "cline/api-history", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"tasks", "cli-tasks", "task-files", "cli-task-files"}, Names: []string{"api_conversation_history.json"},
			Doc: "tasks/<id>/api_conversation_history.json (Anthropic MessageParam array), read only when ui_messages.json is absent: id-less text results paired with their tool_use by order and name; rows inherit the task start",
		}, parseAPIHistory),
		parser.New(parser.Spec{
			ID: "cline/task-history", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"task-history", "cli-task-history"}, Names: []string{"taskHistory.json"},
			Doc: "state/taskHistory.json index: a system row for each listed task whose folder was not collected (the task text, project and model it names)",
		}, parseTaskHistory),
		parser.New(parser.Spec{
			ID: "cline/task-metadata", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"task-files", "cli-task-files"}, Names: []string{"task_metadata.json"},
			Doc: "tasks/<id>/task_metadata.json: files_in_context read/edit dates and model_usage as system rows",
		}, parseTaskMetadata),
		parser.New(parser.Spec{
			ID: "cline/settings", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"settings", "mcp-settings"}, Names: []string{"globalState.json", "global-settings.json", "cline_mcp_settings.json"},
			Doc: "globalState.json / settings/global-settings.json auto-approval, mode and command permission keys, cline_mcp_settings.json autoApprove and disabled per server, as permission setting rows (file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "cline/input-history", Agent: Agent, Version: 3,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "every rewrite of user_input_history.jsonl stamps every line with the rewrite's time, so times do not pair"},
			Targets: []string{"input-history"}, Names: []string{"user_input_history.jsonl"},
			Doc: "CLI cache/user_input_history.jsonl typed prompts (secondary; no session or project; only the last line's time is kept)",
		}, parseInputHistory),
		parser.New(parser.Spec{
			ID: "cline/sdk-messages", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"sdk-messages"}, Names: []string{"*.messages.json"},
			Doc: "SDK sessions/<id>/<id>.messages.json and a subagent's agent_<x>.messages.json: typed prompts (unwrapped from <user_input>), replies, thinking, tool calls with full input and linked results, denials as permission decisions, model and mode switches; millisecond times",
		}, parseSDKMessages),
		parser.New(parser.Spec{
			ID: "cline/sdk-session", Agent: Agent, Version: 1,
			Targets: []string{"sdk-sessions"}, Names: []string{"*.json"},
			Doc: "SDK sessions/<id>/<id>.json session record: start (source, pid, provider, model, import origin), end (status, exit code, stale-session marker), checkpoints, standing auto-approval, enterprise blob upload; the prompt as a secondary row",
			Secondary: &parser.Secondary{Window: sdkPromptWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "agent source: the session record's prompt is the session's first prompt, stamped with the session start; an interactive session's first prompt can come later"},
		}, parseSDKSession),
		parser.New(parser.Spec{
			ID: "cline/sessions-db", Agent: Agent, Version: 2,
			Targets: []string{"sdk-db"}, Names: []string{"sessions.db"},
			Doc: "SDK db/sessions.db sessions table (store of record): the same rows as each session record, with the same record ids, also for a session whose folder is gone; subagent sessions with their parent",
			Secondary: &parser.Secondary{Window: sdkPromptWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "agent source: the session row's prompt is the session's first prompt, stamped with the session start; an interactive session's first prompt can come later"},
		}, parseSessionsDB),
		parser.New(parser.Spec{
			ID: "cline/session-search", Agent: Agent, Version: 2,
			Targets: []string{"sdk-db"}, Names: []string{"session-search.db"},
			Doc: "SDK db/session-search.db full-text index (secondary, undated): one row per indexed session at its start and its prompt; the message documents of a session whose messages file is gone or shorter",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "seed: one row per message with no timestamp"},
		}, parseSessionSearchDB),
		parser.New(parser.Spec{
			ID: "cline/hub-events", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"sdk-db"}, Names: []string{"hub-events-*.db"},
			Doc: "SDK hub daemon db/hub-events-<hub>.db event log (secondary): each completed run's messages with their ids, tool calls of unfinished runs, failed runs",
			Secondary: &parser.Secondary{Window: sdkCopyWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "agent source: the hub logs each event as the run emits it, within seconds of the message it mirrors"},
		}, parseHubEventsDB),
		parser.New(parser.Spec{
			ID: "cline/hooks", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"hooks-log"}, Names: []string{"hooks.jsonl"},
			Doc: "SDK logs/hooks.jsonl hook audit log: hook audit rows for run starts, aborts, errors and stale-session shutdowns; the prompts, calls, results and replies it repeats (secondary)",
			Secondary: &parser.Secondary{Window: sdkCopyWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "agent source: hook-file-hooks.ts appends each hook as it fires, within the run of the message it mirrors"},
		}, parseHooks),
		parser.New(parser.Spec{
			ID: "cline/cloud-pending", Agent: Agent, Version: 1,
			Targets: []string{"cloud-pending"}, Names: []string{"*.json"},
			Doc: "cloud-pending-starts/<pid>-<uuid>.json: Cline Cloud sandboxes started but not yet accepted (session origin remote, file mtime)",
		}, parseCloudPending),
		parser.New(parser.Spec{
			ID: "cline/sync-queue", Agent: Agent, Version: 1,
			Targets: []string{"sync-queue"}, Names: []string{"sync-queue.json"},
			Doc: "VS Code extension cache/sync-queue.json: each queued task-file upload with its status, retries and error (session synced rows)",
		}, parseSyncQueue),
	}
}

// The declared pairing windows of the SDK's secondary sources.
const (
	sdkPromptWindow = 24 * time.Hour
	sdkCopyWindow   = 5 * time.Minute
)

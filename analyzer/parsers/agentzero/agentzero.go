package agentzero

import (
	"math"
	"path"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "agent-zero"

// maxChat bounds a chat.json read whole (it is one JSON object; the log
// keeps 1000 items and each history message is bounded by the context
// window).
const maxChat = 256 << 20

const maxSmall = 16 << 20

// Parsers returns the Agent Zero parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "agent-zero/chat", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"chats", "tmp-chats"}, Names: []string{"*.json"},
			Doc: "usr/chats/<ctxid>/chat.json (and the legacy chats/<ctxid>.json, tmp/chats): the UI log (times) with each agent's history (full text): prompts, replies, thoughts, tool calls and results, subordinate agents, warnings as permission decisions, relay (Telegram, WhatsApp, email) and provider-sync state, per-chat model override",
		}, parseChat),
		parser.New(parser.Spec{
			ID: "agent-zero/chat-messages", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"chat-messages"}, Names: []string{"*.txt"},
			Doc: "usr/chats/<ctxid>/messages/<n>.txt: long tool results, read with their chat.json (each file is accounted as read there)",
		}, parseMessageFile),
		parser.New(parser.Spec{
			ID: "agent-zero/scheduler", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"scheduler"}, Names: []string{"tasks.json"},
			Doc: "usr/scheduler/tasks.json: each task's prompt and last result (secondary)",
			Secondary: &parser.Secondary{
				Window:    time.Hour,
				TurnTypes: []timeline.TurnType{timeline.System, timeline.Assistant},
				Basis:     "helpers/task_scheduler.py stamps last_run when a run starts; its chat's reply follows within the run",
			},
		}, parseScheduler),
		parser.New(parser.Spec{
			ID: "agent-zero/telegram-state", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"telegram-state"}, Names: []string{"state.json"},
			Doc: "the Telegram plugin's state.json chat map: one row per mapped chat, saying when its chat is gone (secondary)",
			Secondary: &parser.Secondary{
				Window:    0,
				TurnTypes: []timeline.TurnType{timeline.System},
				Basis:     "the chat map records no time",
			},
		}, parseTelegramState),
		parser.New(parser.Spec{
			ID: "agent-zero/connector-env", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"connector-env"}, Names: []string{".env"},
			Doc:             "the A0 CLI connector's ~/.agent-zero/.env: the last chat it used and its instance (origin local or remote) and the computer-use switches only; the restore token and every other key are never read",
			ReadsSecretKind: true,
		}, parseConnectorEnv),
		parser.New(parser.Spec{
			ID: "agent-zero/plugin-state", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"plugin-state"},
			Doc:     "_tool_access, _orchestrator and _infection_check config.json and .toggle-0/.toggle-1 switches at every plugin scope: standing permission settings (file mtime)",
		}, parsePluginState),
	}
}

// pyTime reads a Python isoformat() time: with an offset a recorded
// time, without one host-local time emitted as if UTC.
func pyTime(s string) (time.Time, timeline.TimeBasis, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, timeline.TimeNone, false
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), timeline.TimeRecorded, true
	}
	if t, err := time.Parse("2006-01-02T15:04:05.999999999", s); err == nil {
		return t, timeline.TimeLocalAsUTC, true
	}
	return time.Time{}, timeline.TimeNone, false
}

// epoch reads a Unix time in seconds (a float); 0 or less is no time.
func epoch(f float64) (time.Time, bool) {
	if f <= 0 || f > 1e11 {
		return time.Time{}, false
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC(), true
}

func slash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

func base(p string) string { return path.Base(slash(p)) }

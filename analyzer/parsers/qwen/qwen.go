package qwen

import (
	"bytes"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Qwen Code.
const Agent = "qwen-code"

// Parsers returns the Qwen Code parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "qwen-code/chat", Agent: Agent, Version: 7,
			Actions: actions,
			Targets: []string{"chats"}, Names: []string{"*.jsonl"},
			Doc: "projects/<slug>/chats/<session>.jsonl and chats/archive/ ChatRecord JSONL (user, assistant, tool_result, system records)",
		}, parseChat),
		parser.New(parser.Spec{
			ID: "qwen-code/legacy-chat", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"legacy-chats"}, Names: []string{"*.json"},
			Doc: "tmp/<project hash>/chats/session-<time>-<id>.json, the JSON ConversationRecord of Qwen Code before 0.2 (Gemini CLI's legacy chat format, model messages of type qwen): prompts, replies, thoughts, tool calls and results",
		}, parseLegacyChat),
		parser.New(parser.Spec{
			ID: "qwen-code/logs", Agent: Agent, Version: 3,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "logs.json stamps each input as it is submitted, before slash and @-command processing (core/logger.ts, as Gemini CLI's); the chat records the prompt when it is sent, within a second, later after a confirmation"},
			Targets: []string{"logs"}, Names: []string{"logs.json"},
			Doc: "tmp/<hash>/logs.json prompt log (secondary user rows, model_switch rows)",
		}, parseLogs),
		parser.New(parser.Spec{
			ID: "qwen-code/settings", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"trusted-folders", "settings", "project"}, Names: []string{"trustedFolders.json", "settings.json"},
			Doc: ".qwen/trustedFolders.json and a home or project .qwen/settings.json permission rules and tools.approvalMode (file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "qwen-code/channels", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"channels"}, Names: []string{"sessions.json", "routes.json"},
			Doc: ".qwen/channels/sessions.json and daemon/<hash>/routes.json: sessions relayed from a messaging platform",
		}, parseChannels),
		parser.New(parser.Spec{
			ID: "qwen-code/usage", Agent: Agent, Version: 5,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.System},
				Basis: "a usage record is a session's totals written at its end: no primary row repeats its text, so it pairs with nothing (its own timestamp is kept)"},
			Targets: []string{"usage"}, Names: []string{"usage_record.jsonl"},
			Doc: ".qwen/usage_record.jsonl per-session usage summaries (secondary; outlive a deleted transcript)",
		}, parseUsage),
	}
}

// epochMS reads an epoch-milliseconds number (0 or absent is no time).
func epochMS(ms float64) (time.Time, bool) {
	if ms <= 0 {
		return time.Time{}, false
	}
	sec := int64(ms / 1000)
	ns := int64((ms - float64(sec)*1000) * 1e6)
	return time.Unix(sec, ns).UTC().Truncate(time.Millisecond), true
}

// mtime returns the input's modification time as a settings row time.
func mtime(in *parser.Input) (time.Time, timeline.TimeBasis) {
	if in.MTime.IsZero() {
		return time.Time{}, timeline.TimeNone
	}
	return in.MTime.UTC(), timeline.TimeFileMTime
}

// maxSmall bounds a whole-file JSON read (settings, routes: small files).
const maxSmall = 16 << 20

// isKind reports whether raw is a JSON value opening with c.
func isKind(raw json.RawMessage, c byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == c
}

// qwenDir returns the .qwen directory a path lies in ("" if none).
func qwenDir(p string) string {
	if i := strings.LastIndex(p, "/.qwen/"); i >= 0 {
		return p[:i+len("/.qwen")]
	}
	return ""
}

func base(p string) string { return path.Base(p) }

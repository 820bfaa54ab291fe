package goose

import (
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of goose.
const Agent = "goose"

// Parsers returns the goose parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "goose/sessions-db", Agent: Agent, Version: 6,
			Actions: actions,
			Secondary: &parser.Secondary{Window: time.Second,
				TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse, timeline.ToolResult, timeline.Thinking, timeline.System},
				Basis:     "a legacy sessions/<id>.jsonl message and the sessions.db copy goose imported from it keep the same created second (session_manager.rs import_legacy)"},
			Targets: []string{"sessions-db"},
			Names:   []string{"sessions.db"},
			Doc:     "goose sessions/sessions.db: sessions and messages (prompts, replies, thinking, tool requests and responses, confirmations, approvals), plus the legacy sessions/*.jsonl files beside it as a secondary source (the turns the database lacks); deleted sessions and messages carved from freed space and stale WAL frames (recovered)",
		}, parseSessionsDB),
		parser.New(parser.Spec{
			ID: "goose/sessions", Agent: Agent, Version: 6,
			Actions: actions,
			Targets: []string{"sessions"},
			Names:   []string{"*.jsonl"},
			Doc:     "goose legacy sessions/<id>.jsonl (up to 1.9), when no sessions.db was collected beside it",
		}, parseSessionJSONL),
		parser.New(parser.Spec{
			ID: "goose/llm-requests", Agent: Agent, Version: 3,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 600 * time.Second, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "the last 10 provider calls, matched within 600 seconds (seed)"},
			Targets: []string{"llm-requests"},
			Names:   []string{"llm_request.*.jsonl"},
			Doc:     "goose logs/llm_request.*.jsonl: the last provider calls, their model, last prompt and error (secondary source)",
		}, parseLLMRequest),
		parser.New(parser.Spec{
			ID: "goose/history", Agent: Agent, Version: 3,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "history.txt records no time: matches on text alone (seed)"},
			Targets: []string{"history"},
			Names:   []string{"history.txt"},
			Doc:     "goose CLI history.txt: every prompt typed, without time (secondary source)",
		}, parseHistory),
		parser.New(parser.Spec{
			ID: "goose/settings", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"settings"},
			Names:   []string{"permission.yaml", "roaming_trust.json", "config.yaml"},
			Doc:     "goose permission.yaml, roaming_trust.json and config.yaml: standing permission settings (tool permission levels, accepted and revoked roaming peers, GOOSE_MODE) and the model setting",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "goose/schedule", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"schedule"},
			Names:   []string{"schedule.json"},
			Doc:     "goose schedule.json: one scheduled task row per job",
		}, parseSchedule),
	}
}

// epoch reads a goose message time: epoch seconds, or milliseconds when
// the value is above 10^10 (session_manager.rs
// MILLISECOND_TIMESTAMP_THRESHOLD).
func epoch(v int64) (time.Time, bool) { return parser.Epoch(v, 10_000_000_000) }

var sqlTimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
}

// sqlTime reads a SQLite TIMESTAMP column (CURRENT_TIMESTAMP text, UTC, or
// the RFC 3339 text sqlx writes for a DateTime<Utc>).
func sqlTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, l := range sqlTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// identifying picks the most identifying argument of a tool call.
// A text editor's "command" is its sub-command (view, write, str_replace),
// so its path is named instead.
func identifying(name string, args json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	keys := []string{"command", "cmd", "path", "file_path", "url", "pattern", "query", "instructions", "prompt"}
	if strings.HasSuffix(name, "text_editor") || strings.HasSuffix(name, "__edit") || strings.HasSuffix(name, "__write") {
		keys = []string{"path", "file_path", "command"}
	}
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

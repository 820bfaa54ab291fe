package hermes

import (
	"bytes"
	"math"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "hermes"

const maxSmall = 16 << 20

// Parsers returns the Hermes Agent parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "hermes/state-db", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"state-db"}, Names: []string{"state.db"},
			Doc: "state.db (SQLite, WAL): sessions (lineage, source relay, model, cwd, end reason), messages (prompts, replies, reasoning, tool calls and results; rewound and compacted rows kept and marked), session_model_usage, state_meta heartbeats and deletion fences, conversation_generations; state-snapshots/<id>/state.db read the same way as a secondary source",
			Secondary: &parser.Secondary{
				Window:    time.Second,
				TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis:     "a quick state snapshot copies state.db's rows with their own timestamps",
			},
		}, parseStateDB),
		parser.New(parser.Spec{
			ID: "hermes/session-jsonl", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: "sessions/<id>.jsonl, the message diverts written when state.db was replaced under a running process (secondary)",
			Secondary: &parser.Secondary{
				Window:    time.Minute,
				TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis:     "a divert carries the message's own timestamp, as state.db would have",
			},
		}, parseSessionJSONL),
		parser.New(parser.Spec{
			ID: "hermes/prompt-history", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"prompt-history"}, Names: []string{".hermes_history"},
			Doc: ".hermes_history (prompt_toolkit FileHistory): typed CLI prompts at host-local time (secondary)",
			Secondary: &parser.Secondary{
				Window:    15 * time.Hour,
				TurnTypes: []timeline.TurnType{timeline.User},
				Basis:     "prompt_toolkit stamps host-local time with no zone; state.db stamps Unix time: a host offset is at most 14 h",
			},
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "hermes/cron-output", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"cron-output"}, Names: []string{"*.md"},
			Doc: "cron/output/<job>/<time>.md: one cron run's output (secondary)",
			Secondary: &parser.Secondary{
				Window:    time.Hour,
				TurnTypes: []timeline.TurnType{timeline.Assistant},
				Basis:     "the output file is written when the run ends; its session's reply is stamped during the run",
			},
		}, parseCronOutput),
		parser.New(parser.Spec{
			ID: "hermes/pastes", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"pastes"}, Names: []string{"pending.json"},
			Doc: "pastes/pending.json: the paste.rs links of recent hermes debug share uploads (file mtime)",
		}, parsePastes),
		parser.New(parser.Spec{
			ID: "hermes/approvals", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"approvals"}, Names: []string{"config.yaml", "*-approved.json"},
			Doc: "standing approvals: config.yaml command_allowlist and the pairing stores pairing/<platform>-approved.json, platforms/pairing/<platform>-approved.json (permission setting rows)",
		}, parseApprovals),
	}
}

// unixTime reads a REAL Unix time in seconds.
func unixTime(v any) (time.Time, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int64:
		f = float64(x)
	case string:
		return time.Time{}, false
	default:
		return time.Time{}, false
	}
	if f <= 0 || f > 1e11 || math.IsNaN(f) {
		return time.Time{}, false
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC(), true
}

func setUnix(e *timeline.Event, v any) {
	if t, ok := unixTime(v); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

func slash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

func base(p string) string { return path.Base(slash(p)) }

// toolCall is one OpenAI-shaped call of an assistant message's
// tool_calls JSON.
type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// argsJSON is a call's arguments as compact JSON (a JSON string holding
// JSON is decoded once).
func argsJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			raw = []byte(s)
		}
	}
	return parser.CompactJSON(raw)
}

// callText picks a call's telling argument, else its name.
func callText(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"command", "cmd", "path", "file_path", "query", "url", "goal", "task"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return name
}

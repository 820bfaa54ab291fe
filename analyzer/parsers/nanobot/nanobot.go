package nanobot

import (
	"bytes"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "nanobot"

const maxWhole = 64 << 20

// window pairs a secondary row with the session row it repeats: session
// times are host-local time emitted as if UTC, the secondary sources'
// created_at_ms and updated_at_ms are true UTC, and a host's offset is at
// most 14 hours (the seed's 15-hour window).
const window = 15 * time.Hour

func secondary(basis string, tt ...timeline.TurnType) *parser.Secondary {
	return &parser.Secondary{Window: window, TurnTypes: tt, Basis: basis}
}

// Parsers returns the nanobot parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "nanobot/session", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: "sessions/<workspace-id>/<key>.jsonl (and legacy sessions/*.jsonl, .migration-conflicts/, jsonl-backup/): metadata, prompts, replies, reasoning, tool calls and results, subagent results, model preset, relay channel; host-local times as local-as-utc",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "nanobot/webui", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"webui"}, Names: []string{"*.jsonl"},
			Doc:       "WebUI display transcript webui/<key>.jsonl and <key>.segments/NNNNNN.jsonl (secondary, true UTC created_at_ms)",
			Secondary: secondary("nanobot/webui/transcript.py stamps created_at_ms in UTC; the session rows it repeats are host-local time as if UTC, at most 14 h off", timeline.User, timeline.Assistant, timeline.Thinking, timeline.System),
		}, parseWebUI),
		parser.New(parser.Spec{
			ID: "nanobot/webui-index", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"webui-index"}, Names: []string{".webui_session_index.json"},
			Doc:       "WebUI sidebar cache .webui_session_index.json: one secondary row per listed session (title, preview), saying when its session file is gone",
			Secondary: secondary("nanobot/webui/session_list_index.py copies the session's own host-local created_at and updated_at", timeline.System),
		}, parseWebUIIndex),
		parser.New(parser.Spec{
			ID: "nanobot/memory-history", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"memory-history"}, Names: []string{"history.jsonl"},
			Doc: "memory/history.jsonl: the consolidation summaries (cursor, minute-precision host-local timestamp, session_key)",
		}, parseMemoryHistory),
		parser.New(parser.Spec{
			ID: "nanobot/cli-history", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"cli-history"}, Names: []string{"cli_history"},
			Doc:       "history/cli_history (prompt_toolkit FileHistory): typed CLI prompts at host-local time (secondary)",
			Secondary: secondary("prompt_toolkit writes the entry's host-local time; the session rows are host-local too, so seconds apart", timeline.User),
		}, parseCLIHistory),
		parser.New(parser.Spec{
			ID: "nanobot/runs", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"runs"}, Names: []string{"*.json"},
			Doc:       "cron/runs/*.json and triggers/runs/*.json automation run records: rendered prompt, status, response, error (secondary, true UTC)",
			Secondary: secondary("nanobot/utils/run_records.py stamps updated_at_ms in UTC; the session rows are host-local as if UTC", timeline.System, timeline.Assistant),
		}, parseRun),
		parser.New(parser.Spec{
			ID: "nanobot/config", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"config"}, Names: []string{"config.json"},
			Doc:             "config.json: tools.restrictToWorkspace, tools.exec (enable, sandbox, binds, allow and deny patterns) and channels.<name>.allowFrom only, one permission setting row per entry (file mtime); no other key is read",
			ReadsSecretKind: true,
		}, parseConfig),
		parser.New(parser.Spec{
			ID: "nanobot/pairing", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"pairing"}, Names: []string{"pairing.json"},
			Doc: "pairing.json: approved and pending chat senders, one permission setting row per entry",
		}, parsePairing),
	}
}

// localTime reads a Python isoformat() time: with an offset it is a
// recorded time; without (datetime.now(), host-local) it is emitted as if
// UTC with TimeLocalAsUTC.
func localTime(s string) (time.Time, timeline.TimeBasis, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, timeline.TimeNone, false
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), timeline.TimeRecorded, true
	}
	for _, l := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04"} {
		if t, err := time.Parse(l, s); err == nil {
			return t, timeline.TimeLocalAsUTC, true
		}
	}
	return time.Time{}, timeline.TimeNone, false
}

func setLocal(e *timeline.Event, s string) {
	if t, b, ok := localTime(s); ok {
		e.Time, e.TimeBasis = t, b
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

func setMS(e *timeline.Event, ms float64) {
	if ms > 0 && ms < 1e16 {
		e.Time = time.UnixMilli(int64(ms)).UTC()
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

// contentText renders an OpenAI content value: a string as is, a list of
// blocks as their text (other blocks as "[<type>]").
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []map[string]any
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			if t, ok := b["text"].(string); ok {
				parts = append(parts, t)
			} else if ty, ok := b["type"].(string); ok {
				parts = append(parts, "["+ty+"]")
			}
		}
		return strings.Join(parts, "\n")
	}
	return parser.CompactJSON(raw)
}

func slashPath(p string) string { return strings.ReplaceAll(p, "\\", "/") }

func base(p string) string { return path.Base(slashPath(p)) }

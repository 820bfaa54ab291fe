package pi

import (
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/pisession"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Catalog names of the agents read here.
const (
	Agent       = "pi"
	LittleCoder = "little-coder"
	PrimeAgent  = "prime-agent"
	OMP         = "omp"
)

// Parsers returns the pi, little-coder, Prime Agent and OhMyPi parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "pi/session", Agent: Agent, Version: 5,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: ".pi/agent/sessions/<cwd>/<time>_<id>.jsonl and legacy .pi/agent/*.jsonl session trees (fork copies dropped; little-coder sessions flagged)",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "pi/trust", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"trust"}, Names: []string{"trust.json"},
			Doc: ".pi/agent/trust.json project trust decisions (permission setting: rows, file mtime)",
		}, parseTrust),
		parser.New(parser.Spec{
			ID: "pi/settings", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"settings"}, Names: []string{"settings.json"},
			Doc: ".pi/agent/settings.json defaultProjectTrust (permission setting: row, file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "pi/crashes", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"debug"}, Names: []string{"crashes.json"},
			Doc: ".pi/agent/crashes.json recent crashes (crash: rows)",
		}, parseCrashes),
		parser.New(parser.Spec{
			ID: "pi/debug-log", Agent: Agent, Version: 2,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute,
				TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis:     "a message's own timestamp (when it was created; an assistant message's when its generation began) precedes its session entry's (when it was appended) by up to the generation time"},
			Targets: []string{"debug"}, Names: []string{"pi-debug.log"},
			Doc: ".pi/agent/pi-debug.log: the last /debug snapshot (snapshot row; the session's messages, secondary, without a session)",
		}, parseDebugLog),
		parser.New(parser.Spec{
			ID: "pi/experimental-meta", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"experimental-meta"}, Names: []string{"meta.json"},
			Doc: ".pi/agent/experimental/sessions/<id>/meta.json: the experimental server's durable session (id, cwd, creation time; session.sqlite not parsed)",
		}, parseExperimentalMeta),
		parser.New(parser.Spec{
			ID: "prime-agent/session", Agent: PrimeAgent, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: ".prime/agent/sessions/<file>.jsonl: pi-format sessions (fork parent from parentSession's path, subagent usage attributions)",
		}, parsePrimeSession),
		parser.New(parser.Spec{
			ID: "omp/session", Agent: OMP, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: ".omp/agent/sessions/<cwd>/<time>_<id>.jsonl and subagents <time>_<id>/<agent>.jsonl: pi-format sessions with OhMyPi's title slot, title changes, side model calls, context resets, injected rules, subagent init, mode changes",
		}, parseOMPSession),
		parser.New(parser.Spec{
			ID: "little-coder/prompt-history", Agent: LittleCoder, Version: 3,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "the prompt history records no time"},
			Targets: []string{"prompt-history"}, Names: []string{"little-coder-prompt-history.json"},
			Doc: ".pi/agent/little-coder-prompt-history.json prompts (secondary user rows without time or session)",
		}, parsePromptHistory),
		&lcSessionParser{Parser: parser.New(parser.Spec{
			ID: "little-coder/session", Agent: LittleCoder, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.json"},
			Doc: "v0.0.x .little-coder/sessions/daily/<date>/session_*.json, /save files and mr_sessions/*.json: saved sessions (rows at the save time, host local)",
		}, parseLCSessions)},
		&lcSessionParser{copy: true, Parser: parser.New(parser.Spec{
			ID: "little-coder/session-copy", Agent: LittleCoder, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{Window: time.Second,
				TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis:     "written at the same exit save as the daily file, with the same saved_at and session_id (little_coder.py save_latest at v0.0.5)"},
			Targets: []string{"sessions"}, Names: []string{"history.json", "session_latest.json"},
			Doc: "v0.0.x .little-coder/sessions/history.json and mr_sessions/session_latest.json: copies of the saved sessions (secondary)",
		}, parseLCSessions)},
		parser.New(parser.Spec{
			ID: "little-coder/input-history", Agent: LittleCoder, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "readline's input_history.txt records no time or session (little_coder.py setup_readline at v0.0.5)"},
			Targets: []string{"input-history"}, Names: []string{"input_history.txt"},
			Doc: "v0.0.x .little-coder/input_history.txt readline history (secondary user rows without time or session)",
		}, parseLCInputHistory),
		parser.New(parser.Spec{
			ID: "little-coder/config", Agent: LittleCoder, Version: 1, ReadsSecretKind: true,
			Actions: actions,
			Targets: []string{"config"}, Names: []string{"config.json"},
			Doc: "v0.0.x .little-coder/config.json: permission mode, Gist sync and Telegram relay keys only (API keys never read)",
		}, parseLCConfig),
		parser.New(parser.Spec{
			ID: "little-coder/checkpoints", Agent: LittleCoder, Version: 3,
			Actions: actions,
			Targets: []string{"checkpoints"},
			Doc:     ".little-coder/checkpoints/<session file>/ pre-edit copies (one system row per session, earliest file mtime) and v0.0.x <sid>/snapshots.json (one row per snapshot)",
		}, parseCheckpoints),
	}
}

// msTime reads epoch milliseconds.
func msTime(v json.Number) (time.Time, bool) { return pisession.MsTime(v) }

// homeOf returns the home directory of a path under .pi/ or .little-coder/.
func homeOf(p string) string { return pisession.HomeOf(p) }

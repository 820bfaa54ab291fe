package pi

import (
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Catalog names of the agents read here.
const (
	Agent       = "pi"
	LittleCoder = "little-coder"
)

// Parsers returns the pi and little-coder parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "pi/session", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: ".pi/agent/sessions/<cwd>/<time>_<id>.jsonl and legacy .pi/agent/*.jsonl session trees (fork copies dropped; little-coder sessions flagged)",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "pi/trust", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"trust"}, Names: []string{"trust.json"},
			Doc: ".pi/agent/trust.json project trust decisions (permission setting: rows, file mtime)",
		}, parseTrust),
		parser.New(parser.Spec{
			ID: "pi/settings", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"settings"}, Names: []string{"settings.json"},
			Doc: ".pi/agent/settings.json defaultProjectTrust (permission setting: row, file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "pi/crashes", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"debug"}, Names: []string{"crashes.json"},
			Doc: ".pi/agent/crashes.json recent crashes (crash: rows)",
		}, parseCrashes),
		parser.New(parser.Spec{
			ID: "little-coder/prompt-history", Agent: LittleCoder, Version: 2,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "the prompt history records no time"},
			Targets: []string{"prompt-history"}, Names: []string{"little-coder-prompt-history.json"},
			Doc: ".pi/agent/little-coder-prompt-history.json prompts (secondary user rows without time or session)",
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "little-coder/checkpoints", Agent: LittleCoder, Version: 2,
			Actions: actions,
			Targets: []string{"checkpoints"},
			Doc:     ".little-coder/checkpoints/<session file>/ pre-edit copies (one system row per session, earliest file mtime)",
		}, parseCheckpoints),
	}
}

// msTime reads epoch milliseconds.
func msTime(v json.Number) (time.Time, bool) {
	if v == "" {
		return time.Time{}, false
	}
	f, err := v.Float64()
	if err != nil || f <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(f)).UTC(), true
}

// homeOf returns the home directory of a path under .pi/ or .little-coder/.
func homeOf(p string) string {
	for _, m := range []string{"/.pi/", "/.little-coder/"} {
		if i := strings.LastIndex(p, m); i >= 0 {
			return p[:i]
		}
	}
	return ""
}

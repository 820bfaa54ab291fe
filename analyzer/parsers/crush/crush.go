package crush

import (
	json "github.com/go-json-experiment/json/v1"
	"path"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// Agent is the catalog name of Crush.
const Agent = "crush"

// Parsers returns the Crush parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "crush/db", Agent: Agent, Version: 6,
			Actions: actions,
			Targets: []string{"home-db", "project"},
			Names:   []string{"crush.db"},
			Doc:     "Crush .crush/crush.db: sessions, messages (prompts, replies, reasoning, tool calls and results, model changes, summaries), file snapshots and file reads; deleted sessions and messages carved from freed space and stale WAL frames (recovered)",
		}, parseDB),
		parser.New(parser.Spec{
			ID: "crush/projects", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"projects"},
			Names:   []string{"projects.json"},
			Doc:     "Crush projects.json: one row per project directory Crush tracked, at its last access",
		}, parseProjects),
		parser.New(parser.Spec{
			ID: "crush/config", Agent: Agent, Version: 2, ReadsSecretKind: true,
			Actions: actions,
			Targets: []string{"config", "project"},
			Names:   []string{"crush.json", ".crush.json", "crushrc", ".crushrc"},
			Doc:     "Crush crush.json scopes and crushrc: standing permission settings only (allowed and disabled tools); provider keys are never read out",
		}, parseConfig),
	}
}

// epoch turns a Crush integer time into UTC: seconds (what the queries
// store, strftime('%s','now')), or milliseconds (what the initial
// migration's comments promise) when the value is too large for seconds.
func epoch(v int64) (time.Time, bool) { return parser.Epoch(v, 100_000_000_000) }

// projectOf returns the project directory of a crush.db: the parent of its
// .crush data directory; "" when the database is elsewhere.
func projectOf(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	dir := path.Dir(p)
	if path.Base(dir) != ".crush" {
		return ""
	}
	return path.Dir(dir)
}

// identifying picks the most identifying argument of a tool call: the
// shell command, the file path, the URL, the pattern or query, the prompt.
func identifying(input string) string {
	var m map[string]any
	if json.Unmarshal([]byte(input), &m) != nil {
		return ""
	}
	for _, k := range []string{"command", "cmd", "file_path", "path", "url", "pattern", "query", "prompt", "description"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

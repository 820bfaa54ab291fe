package opencode

import (
	"bytes"
	"path"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent names as in the catalog.
const (
	agentOpenCode = "opencode"
	agentKilo     = "kilo-code"
	agentZCode    = "zcode"
	agentIcode    = "icodemate"
	agentMiMo     = "mimocode"
)

var allTurns = []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse, timeline.ToolResult, timeline.Thinking, timeline.System}

// Parsers returns the OpenCode, Kilo Code, iCodeMate, MiMoCode and ZCode
// parsers. Kilo Code's CLI, iCodeMate and MiMoCode are OpenCode forks that
// keep OpenCode's stores under their own paths, and ZCode's CLI keeps
// OpenCode's session, message and part rows in its own db.sqlite, so the
// agents share the readers; each parser's Agent is the agent whose catalog
// targets it matches.
func Parsers() []parser.Parser {
	var ps []parser.Parser
	for _, a := range []string{agentOpenCode, agentKilo, agentIcode, agentMiMo} {
		dbNames := []string{"opencode*.db"}
		switch a {
		case agentKilo:
			dbNames = []string{"kilo*.db", "opencode-*.db"}
		case agentIcode:
			dbNames = []string{"icodemate*.db"}
		case agentMiMo:
			dbNames = []string{"mimocode*.db"}
		}
		ps = append(ps,
			parser.New(parser.Spec{
				ID: a + "/db", Agent: a, Version: 7,
				Actions: actions,
				Targets: []string{"db"}, Names: dbNames,
				Secondary: &parser.Secondary{Window: time.Second, TurnTypes: allTurns,
					Basis: "opencode-next.db (the 2.0 pre-release store) holds the sessions it shares with opencode.db under the same record ids and times; the id-less rows (model changes) pair within a second"},
				Doc: "SQLite store (1.x session/message/part, V2 session_message, 2.0 session_v2): prompts, replies, reasoning, tool calls and results, model changes, compactions, titles, share sync, permission rules, archive, worktrees (opencode-next.db secondary); deleted sessions, messages and parts carved from freed space and stale WAL frames (recovered)",
			}, parseDB),
			parser.New(parser.Spec{
				ID: a + "/storage", Agent: a, Version: 3,
				Actions: actions,
				Targets: []string{"storage"}, Names: []string{"ses_*.json"},
				Doc: "legacy JSON tree storage/session/<project>/<ses>.json with message/<ses>/*.json and part/<msg>/*.json (and project/<slug>/storage/session/), session_share/<ses>.json sync markers",
			}, parseStorage),
			&exportParser{Parser: parser.New(parser.Spec{
				ID: a + "/export", Agent: a, Version: 3,
				Actions: actions,
				Targets: []string{"storage"}, Names: []string{"*.json"},
				Doc: "`opencode export` JSON ({info, messages:[{info, parts}]}) found among the storage files",
			}, parseExport)},
		)
	}
	ps = append(ps,
		parser.New(parser.Spec{
			ID: "opencode/tui-state", Agent: agentOpenCode, Version: 4, Trace: true,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "the TUI prompt history records no time; stashed drafts and session.json's pinned and recent sessions are system rows no primary source repeats"},
			Targets: []string{"tui-state"}, Names: []string{"prompt-history.jsonl", "prompt-stash.jsonl", "session.json"},
			Doc: "terminal UI prompt-history.jsonl (typed prompts, secondary), prompt-stash.jsonl (stashed drafts) and session.json (pinned and recently opened sessions, secondary)",
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "opencode/config", Agent: agentOpenCode, Version: 2,
			Actions: actions,
			Targets: []string{"config"}, Names: []string{"*.json", "*.jsonc"},
			Doc: "global config opencode.json(c)/config.json: permission keys as permission setting rows, model as model setting",
		}, parseConfig),
		parser.New(parser.Spec{
			ID: "kilo-code/prompt-history", Agent: agentKilo, Version: 3, Trace: true,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "the TUI prompt history records no time; stashed drafts and session.json's pinned sessions are system rows no primary source repeats"},
			Targets: []string{"prompt-history"}, Names: []string{"prompt-history.jsonl", "prompt-stash.jsonl", "session.json"},
			Doc: "terminal UI prompt-history.jsonl (typed prompts, secondary), prompt-stash.jsonl (stashed drafts) and session.json (pinned sessions, secondary)",
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "kilo-code/config", Agent: agentKilo, Version: 2,
			Actions: actions,
			Targets: []string{"config"}, Names: []string{"*.json", "*.jsonc"},
			Doc: "global config in .config/kilo: permission keys as permission setting rows, model as model setting",
		}, parseConfig),
		parser.New(parser.Spec{
			ID: "kilo-code/sandbox", Agent: agentKilo, Version: 1,
			Actions: actions,
			Targets: []string{"sandbox"}, Names: []string{"*.json"},
			Doc: "sandbox state in .local/state/kilo-sandbox-policy (per-session confinement snapshots) and kilo-sandbox-preference (per-project on/off)",
		}, parseSandbox),
		parser.New(parser.Spec{
			ID: "kilo-code/retention", Agent: agentKilo, Version: 1,
			Actions: actions,
			Targets: []string{"retention"}, Names: []string{"state.json"},
			Doc: "retention/state.json: the last session-retention pass (sessions deleted, scanned, skipped, failed)",
		}, parseRetention),
		parser.New(parser.Spec{
			ID: "kilo-code/log", Agent: agentKilo, Version: 1,
			Actions: actions,
			Targets: []string{"logs"}, Names: []string{"*.log"},
			Doc: "log/*.log: the remote control lines (the cloud relay connection enabled, connected, disabled or refused)",
		}, parseKiloLog),
		parser.New(parser.Spec{
			ID: "kilo-code/extension-tasks", Agent: agentKilo, Version: 2,
			Actions: actions,
			Targets: []string{"extension-tasks"}, Names: []string{"api_conversation_history.json"},
			Doc: "pre-migration VS Code extension tasks/<id>/api_conversation_history.json (Anthropic MessageParam array)",
		}, parseAPIHistory),
		// ZCode's CLI keeps OpenCode's session, message and part rows
		// (with RFC 3339 text times and Anthropic-style blocks in older
		// builds) plus model_usage in one db.sqlite.
		parser.New(parser.Spec{
			ID: "zcode/db", Agent: agentZCode, Version: 2,
			Actions: zcodeActions,
			Targets: []string{"db"}, Names: []string{"db.sqlite"},
			Doc: "~/.zcode/cli/db/db.sqlite (OpenCode's session/message/part rows, times as epoch ms or RFC 3339 text, text/reasoning/tool parts and the older thinking/tool_use/tool_result blocks) and model_usage: one row per model turn",
		}, parseDB),
	)
	return ps
}

// exportParser matches storage JSON files that are not session, message or
// part records (an export saved among them); it opens only those.
type exportParser struct{ parser.Parser }

func (p *exportParser) Match(f *parser.File) bool {
	if !p.Parser.Match(f) {
		return false
	}
	b := f.Base()
	for _, pre := range []string{"ses_", "msg_", "prt_"} {
		if strings.HasPrefix(b, pre) {
			return false
		}
	}
	return true
}

// Spec returns the wrapped parser's spec (for the generated parser list).
func (p *exportParser) Spec() parser.Spec { return p.Parser.(parser.Specced).Spec() }

// msTime converts epoch milliseconds; zero or negative gives zero.
func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	// seconds slipped in where ms are expected (before 2001 in ms)
	if ms < 1e11 {
		return time.Unix(ms, 0).UTC()
	}
	return time.UnixMilli(ms).UTC()
}

// num is a JSON number that also accepts a numeric string; it holds int64.
type num int64

func (n *num) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return nil
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			*n = num(f)
		} else if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			*n = num(t.UnixMilli())
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return nil
	}
	*n = num(f)
	return nil
}

// baseName is the last element of a '/' or '\' separated path.
func baseName(p string) string { return path.Base(strings.ReplaceAll(p, "\\", "/")) }

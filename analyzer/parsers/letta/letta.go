package letta

import (
	"encoding/base64"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Letta Code.
const Agent = "letta"

// Parsers returns the Letta Code parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "letta/conversation", Agent: Agent, Version: 4, Actions: actions,
			Targets: []string{"conversations"}, Names: []string{"messages.jsonl"},
			Doc: ".letta/lc-local-backend/conversations/<key>/messages.jsonl local-backend conversations (pi session entries; system reminders as system rows; model per assistant message)",
		}, parseConversation),
		parser.New(parser.Spec{
			ID: "letta/conversation-meta", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"conversation-meta"}, Names: []string{"conversation.json", "manifest.json", "system-prompt.json"},
			Doc: "conversations/<key>/conversation.json (created, archived, summary), manifest.json (transcript migrations) and system-prompt.json (compiled prompt, core memory)",
		}, parseConversationMeta),
		parser.New(parser.Spec{
			ID: "letta/agent", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"local-agents"}, Names: []string{"*.json"},
			Doc: ".letta/lc-local-backend/agents/<key>.json local agents (name, model, tags; file mtime)",
		}, parseAgentRecord),
		parser.New(parser.Spec{
			ID: "letta/settings", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"settings", "project"}, Names: []string{"settings.json", "settings.local.json"},
			Doc: ".letta/settings.json, .config/letta/settings.json and a project's .letta/settings{,.local}.json: permissions, last sessions per server, agents (file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "letta/providers", Agent: Agent, Version: 1, Actions: actions, ReadsSecretKind: true,
			Targets: []string{"local-secrets"}, Names: []string{"auth.json"},
			Doc: ".letta/lc-local-backend/providers/auth.json connected model providers (name, type, base URL, times; never the key)",
		}, parseProviders),
		parser.New(parser.Spec{
			ID: "letta/memfs", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"memfs", "memfs-git"},
			Doc:     "memfs/<agent>/memory/ memory files (one row each, file mtime) and its git repository's reflog, remote and push log",
		}, parseMemfs),
	}
}

// maxDoc bounds a JSON document read whole.
const maxDoc = 64 << 20

// readDoc reads a whole JSON document (bounded).
func readDoc(in *parser.Input) ([]byte, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxDoc+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxDoc {
		return nil, fmt.Errorf("document over %d MiB, not read", maxDoc>>20)
	}
	return b, nil
}

// decodeDoc reads in as one JSON object into v; a problem at line 0 and
// false when it is not one.
func decodeDoc(in *parser.Input, out parser.Sink, v any) bool {
	b, err := readDoc(in)
	if err != nil {
		out.Problem(0, err.Error())
		return false
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		out.Skip(1, "no_evidence:empty_file")
		return false
	}
	if err := json.Unmarshal(b, v); err != nil {
		out.Problem(1, parser.NotJSON("", err))
		return false
	}
	return true
}

// isoTime reads an ISO 8601 time.
func isoTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// recorded returns an event at t (recorded), else at the file's mtime.
func recorded(in *parser.Input, t time.Time) timeline.Event {
	if t.IsZero() {
		return parser.SettingEvent(&in.File)
	}
	return timeline.Event{Time: t, TurnType: timeline.System}
}

// keyOf decodes a local-backend directory or file name: the store keys
// folders by base64url of "conversation:<id>" or "default:<agent id>" and
// agent files by base64url of the agent id, without padding.
func keyOf(name string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(name, "="))
	if err != nil {
		return "", false
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return "", false
		}
	}
	return string(b), true
}

// conversationOf is the conversation id a conversations/<key>/ folder holds
// ("" for an agent's default conversation, whose key is default:<agent>).
func conversationOf(p string) (id, agent string) {
	k, ok := keyOf(path.Base(path.Dir(p)))
	if !ok {
		return "", ""
	}
	if v, ok := strings.CutPrefix(k, "conversation:"); ok {
		return v, ""
	}
	if v, ok := strings.CutPrefix(k, "default:"); ok {
		return "", v
	}
	return "", ""
}

package openhands

import (
	"bytes"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "openhands"

const maxWhole = 64 << 20

// Parsers returns the OpenHands parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "openhands/event", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"events"}, Names: []string{"event-*.json"},
			Doc: "SDK conversations (.openhands/conversations, agent-canvas/conversations and dev_conversations): one events/event-<idx>-<id>.json per event: prompts, replies, reasoning, tool calls and observations, rejections (permission decisions), hook blocks, security risk, condensations, pauses, errors; naive local times corrected by the offset meta.json implies",
		}, parseEvent),
		parser.New(parser.Spec{
			ID: "openhands/meta", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"meta"}, Names: []string{"meta.json"},
			Doc: "a conversation's meta.json: title, creation time, working directory, fork origin",
		}, parseMeta),
		parser.New(parser.Spec{
			ID: "openhands/base-state", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"base-state"}, Names: []string{"base_state.json"},
			Doc: "a conversation's base_state.json: model, confirmation policy and security analyzer (standing permission settings), hook-blocked actions, token usage per usage id",
		}, parseBaseState),
		parser.New(parser.Spec{
			ID: "openhands/prompt-history", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"prompt-history"}, Names: []string{"prompt_history.json"},
			Doc: "the CLI's projects/<sha256 of cwd>/prompt_history.json: typed prompts at host-local time (secondary)",
			Secondary: &parser.Secondary{
				Window:    15 * time.Hour,
				TurnTypes: []timeline.TurnType{timeline.User},
				Basis:     "openhands_cli stores/prompt_history.py stamps datetime.now() (host-local, no zone) while event times may be corrected to UTC: a host offset is at most 14 h",
			},
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "openhands/legacy-session", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"legacy-sessions"}, Names: []string{"*.json"},
			Doc: "legacy 0.x sessions/<sid>/events/<n>.json: one system row per session saying it is not parsed",
		}, parseLegacy),
	}
}

// convDir is the conversation folder of a file under it
// (<conv>/events/event-*.json, <conv>/meta.json).
func convDir(p string) string {
	d := path.Dir(strings.ReplaceAll(p, "\\", "/"))
	if path.Base(d) == "events" {
		d = path.Dir(d)
	}
	return d
}

// naiveTime reads a Python isoformat() time: with an offset it is UTC
// once converted; without, host-local (naive).
func naiveTime(s string) (t time.Time, naive, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false, false
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), false, true
	}
	if t, err := time.Parse("2006-01-02T15:04:05.999999999", s); err == nil {
		return t, true, true
	}
	return time.Time{}, false, false
}

// textOf joins the text of a content list ([{type: text, text}, {type:
// image, image_urls}]); images are named, never their data.
func textOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type      string   `json:"type"`
		Text      string   `json:"text"`
		ImageURLs []string `json:"image_urls"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return parser.CompactJSON(raw)
	}
	var out []string
	for _, p := range parts {
		switch {
		case p.Text != "":
			out = append(out, p.Text)
		case p.Type == "image":
			out = append(out, "[image x"+itoa(len(p.ImageURLs))+"]")
		}
	}
	return strings.Join(out, "\n")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

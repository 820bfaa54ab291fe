package continuedev

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Continue.
const Agent = "continue"

// Parsers returns the Continue parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "continue/sessions", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"sessions"},
			Names:   []string{"*.json"},
			Doc:     "Continue sessions/<sessionId>.json (prompts, replies, thinking, tool calls and results, denials) timed from sessions/sessions.json dateCreated; sessions.json entries whose session file is gone",
		}, parseSessionFile),
		parser.New(parser.Spec{
			ID: "continue/dev-data", Agent: Agent, Version: 2,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "dev data events are stamped as the session's messages are written"},
			Targets: []string{"dev-data"},
			Names:   []string{"chatInteraction.jsonl", "toolUsage.jsonl", "editInteraction.jsonl", "editOutcome.jsonl", "chatFeedback.jsonl"},
			Doc:     "Continue dev_data/<schema>/*.jsonl: chat completions, tool usage, edit prompts and outcomes, feedback (secondary source)",
		}, parseDevData),
		parser.New(parser.Spec{
			ID: "continue/cli-log", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"logs"},
			Names:   []string{"cn.log", "cn[0-9]*.log"},
			Doc:     "Continue CLI logs/cn.log and rotated cn<N>.log: agent metadata posts, storage uploads, permission rules added and tool calls denied (host-local time)",
		}, parseCLILog),
		parser.New(parser.Spec{
			ID: "continue/permissions", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"permissions"},
			Names:   []string{"permissions.yaml"},
			Doc:     "Continue CLI permissions.yaml: one permission setting row per allow, ask or exclude rule",
		}, parsePermissions),
		parser.New(parser.Spec{
			ID: "continue/input-history", Agent: Agent, Version: 3,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "input_history.json records no time"},
			Targets: []string{"input-history"},
			Names:   []string{"input_history.json"},
			Doc:     "Continue CLI input_history.json: every prompt typed, with its time (secondary source)",
		}, parseInputHistory),
	}
}

// maxWholeBytes bounds the small files read whole.
const maxWholeBytes = 8 << 20

func readWhole(in *parser.Input, out parser.Sink) ([]byte, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxWholeBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(data) > maxWholeBytes {
		out.Problem(0, "larger than 8 MiB: not read")
		return nil, nil
	}
	return data, nil
}

// epochMillis reads a time written as epoch milliseconds: a JSON number or
// a string of digits (sessions.json dateCreated is String(Date.now())).
// An ISO 8601 string is accepted too.
func epochMillis(raw json.RawMessage) (time.Time, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, false
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return time.Time{}, false
		}
	} else {
		s = string(raw)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f <= 0 {
			return time.Time{}, false
		}
		if f < 1e11 { // seconds
			return time.Unix(int64(f), 0).UTC(), true
		}
		return time.UnixMilli(int64(f)).UTC(), true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// argsJSON turns a tool call's arguments (an OpenAI-style JSON string, or
// an object in some CLI records) into compact JSON and its decoded map.
func argsJSON(raw json.RawMessage) (string, map[string]any) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return parser.CompactJSON(raw), nil
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return "", nil
		}
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil {
			return parser.CompactJSON([]byte(s)), m
		}
		q, _ := json.Marshal(s)
		return string(q), nil
	}
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return parser.CompactJSON(raw), m
}

// identifying picks a tool call's most identifying argument: the command,
// the file path, the URL, the pattern or the query.
func identifying(args map[string]any) string {
	for _, k := range []string{"command", "cmd", "filepath", "file_path", "filePath", "path", "url", "pattern", "query", "dirPath", "directory_path", "dirpath", "name"} {
		if s, ok := args[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// contentText renders MessageContent: a string, or parts of {type:"text",
// text} and {type:"imageUrl"}.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL *struct {
			URL string `json:"url"`
		} `json:"imageUrl"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return parser.CompactJSON(raw)
	}
	var b strings.Builder
	for _, p := range parts {
		var t string
		switch {
		case p.Type == "text" || p.Text != "":
			t = p.Text
		case p.Type == "imageUrl" || p.ImageURL != nil:
			t = "[image]"
		}
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(t)
	}
	return b.String()
}

// projectPath turns a workspaceDirectory (a file:// URI in the IDE
// extensions, a plain path in the CLI) into a path.
func projectPath(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "file://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	p := u.Path
	// file:///c%3A/Users/x -> c:/Users/x
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	if u.Host != "" && u.Host != "localhost" {
		p = "//" + u.Host + p
	}
	return p
}

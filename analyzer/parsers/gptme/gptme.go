package gptme

import (
	"context"
	"encoding/json"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "gptme"

// Parsers returns the gptme parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "gptme/conversation", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"logs", "logs-macos", "logs-windows"}, Names: []string{"conversation.jsonl"},
			Doc: "logs/<name>/conversation.jsonl messages: typed prompts, replies, tool calls from code blocks and @tool lines, tool results from system messages, token usage and cost (local time, no zone)",
		}, parseConversation),
	}
}

type message struct {
	Role      string   `json:"role"`
	Content   *string  `json:"content"`
	Timestamp string   `json:"timestamp"`
	Files     []string `json:"files"`
	Hide      bool     `json:"hide"`
	CallID    string   `json:"call_id"`
	Metadata  struct {
		Model string `json:"model"`
		Tool  string `json:"tool"`
		Usage *struct {
			Input         *int64 `json:"input_tokens"`
			Output        *int64 `json:"output_tokens"`
			CacheRead     *int64 `json:"cache_read_tokens"`
			CacheCreation *int64 `json:"cache_creation_tokens"`
		} `json:"usage"`
		Cost json.RawMessage `json:"cost"`
	} `json:"metadata"`
}

// toolcallRe is gptme's tool-format call (tools/base.py toolcall_re).
var toolcallRe = regexp.MustCompile(`(?m)^@([\w.]+)\(([\w\-:.]+)\):\s*(\{.*)`)

// fenceRe opens a fenced code block: the backticks and the info string.
var fenceRe = regexp.MustCompile("^(`{3,})(.*)$")

// localLayouts are Python's isoformat() without a zone.
var localLayouts = []string{"2006-01-02T15:04:05.999999", "2006-01-02T15:04:05"}

func msgTime(s string) (time.Time, timeline.TimeBasis) {
	if t, ok := parser.ParseTime(s); ok {
		return t, timeline.TimeRecorded
	}
	for _, l := range localLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, timeline.TimeLocalAsUTC
		}
	}
	return time.Time{}, timeline.TimeNone
}

type call struct {
	name, id, input, text string
}

func parseConversation(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sid := path.Base(path.Dir(in.Path))
	var pending []call // calls of the last assistant message not yet answered
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if m.Content == nil || m.Role == "" {
			out.Report(n, parser.KindSkippedRecord, "a record with no role or content")
			return nil
		}
		t, basis := msgTime(m.Timestamp)
		e := timeline.Event{SessionID: sid, SourceLine: n, Time: t, TimeBasis: basis, Model: m.Metadata.Model, Text: *m.Content}
		if len(m.Files) > 0 {
			e.Text += "\n[files: " + strings.Join(m.Files, ", ") + "]"
		}
		switch m.Role {
		case "user":
			e.TurnType = timeline.User
			if m.Hide {
				e.TurnType, e.Text = timeline.System, "hidden context in the user role (not typed): "+e.Text
			}
			pending = nil
			out.Event(e)
		case "assistant":
			e.TurnType = timeline.Assistant
			out.Event(e)
			pending = calls(*m.Content)
			for _, c := range pending {
				out.Event(timeline.Event{SessionID: sid, SourceLine: n, Time: t, TimeBasis: basis, Model: m.Metadata.Model,
					TurnType: timeline.ToolUse, ToolName: c.name, ToolUseID: c.id, ToolInput: c.input, Text: c.text})
			}
			if u := usageText(&m); u != "" {
				out.Event(timeline.Event{SessionID: sid, SourceLine: n, Time: t, TimeBasis: basis, Model: m.Metadata.Model,
					TurnType: timeline.System, Text: u})
			}
		case "system":
			name, id := m.Metadata.Tool, m.CallID
			if id != "" {
				for i, c := range pending {
					if c.id == id {
						if name == "" {
							name = c.name
						}
						pending = append(pending[:i:i], pending[i+1:]...)
						break
					}
				}
			} else if len(pending) > 0 && (name == "" || name == pending[0].name) {
				name, id = pending[0].name, pending[0].id
				pending = pending[1:]
			}
			if name == "" && id == "" {
				e.TurnType = timeline.System
			} else {
				e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolResult, name, id
			}
			out.Event(e)
		default:
			out.Report(n, parser.KindSkippedRecord, "a message of role "+m.Role)
		}
		return nil
	})
}

// calls finds the tool calls in an assistant message as gptme does: fenced
// code blocks whose language is a tool's block type, and, outside code
// blocks, "@tool(call_id): {json}" lines.
func calls(content string) []call {
	var out []call
	lines := strings.Split(content, "\n")
	var blocks [][2]int // byte ranges of code blocks
	off := 0
	for i := 0; i < len(lines); i++ {
		start := off
		off += len(lines[i]) + 1
		m := fenceRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		fence, info := m[1], strings.TrimSpace(m[2])
		var body []string
		j := i + 1
		end := off
		for ; j < len(lines); j++ {
			end += len(lines[j]) + 1
			if strings.TrimSpace(lines[j]) == fence {
				break
			}
			body = append(body, lines[j])
		}
		blocks = append(blocks, [2]int{start, end})
		i, off = j, end
		lang, args, _ := strings.Cut(info, " ")
		if _, ok := actions[lang]; !ok {
			continue
		}
		code := strings.Join(body, "\n")
		in := map[string]string{"content": code}
		if args != "" {
			in["args"] = args
		}
		b, _ := json.Marshal(in)
		text := code
		if args != "" {
			text = args
		}
		out = append(out, call{name: lang, input: string(b), text: text})
	}
	for _, loc := range toolcallRe.FindAllStringSubmatchIndex(content, -1) {
		inBlock := false
		for _, bl := range blocks {
			if loc[0] >= bl[0] && loc[0] < bl[1] {
				inBlock = true
			}
		}
		if inBlock {
			continue
		}
		name, id := content[loc[2]:loc[3]], content[loc[4]:loc[5]]
		dec := json.NewDecoder(strings.NewReader(content[loc[6]:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			out = append(out, call{name: name, id: id, text: "unreadable arguments: " + firstLine(content[loc[6]:])})
			continue
		}
		c := call{name: name, id: id, input: parser.CompactJSON(raw), text: name}
		var a map[string]any
		if json.Unmarshal(raw, &a) == nil {
			for _, k := range []string{"command", "path", "code", "url"} {
				if s, ok := a[k].(string); ok && s != "" {
					c.text = s
					break
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// usageText is an assistant message's metadata.usage and metadata.cost
// (USD, as gptme wrote it; a cost that is not a number is quoted as it is) as one accounting line; "" when it has neither.
// A counter the message does not hold is left out, never taken for zero.
func usageText(m *message) string {
	var parts []string
	if u := m.Metadata.Usage; u != nil {
		for _, c := range []struct {
			name string
			v    *int64
		}{{"input", u.Input}, {"output", u.Output}, {"cache read", u.CacheRead}, {"cache creation", u.CacheCreation}} {
			if c.v != nil {
				parts = append(parts, c.name+" "+strconv.FormatInt(*c.v, 10))
			}
		}
	}
	if c := strings.TrimSpace(string(m.Metadata.Cost)); c != "" && c != "null" {
		if _, err := strconv.ParseFloat(c, 64); err == nil {
			c = "$" + c
		}
		parts = append(parts, "cost "+c)
	}
	if len(parts) == 0 {
		return ""
	}
	return "token usage: " + strings.Join(parts, ", ")
}

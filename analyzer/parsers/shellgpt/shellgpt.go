package shellgpt

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "shellgpt"

// maxWhole bounds the files read whole (a chat keeps at most
// CHAT_CACHE_LENGTH messages, 100 by default).
const maxWhole = 64 << 20

// Parsers returns the ShellGPT parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "shellgpt/chat-cache", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"chat-cache"},
			Doc:     "chat_cache/<chat id>: one JSON array of OpenAI messages per chat (role, prompts, replies, tool_calls and the pre-1.5.0 function_call shape, tool results); no time is recorded",
		}, parseChat),
		parser.New(parser.Spec{
			ID: "shellgpt/response-cache", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"response-cache"},
			Doc:     "cache/<md5>: the text of one cached completion, an assistant row at the file's mtime (secondary)",
			Secondary: &parser.Secondary{
				Window:    0,
				TurnTypes: []timeline.TurnType{timeline.Assistant},
				Basis:     "sgpt/cache.py writes the reply text alone; the chat cache rows it repeats record no time, so pairs are by text alone",
			},
		}, parseResponseCache),
		parser.New(parser.Spec{
			ID: "shellgpt/config", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"config"}, Names: []string{".sgptrc"},
			Doc:             ".sgptrc: DEFAULT_MODEL (model setting) and OPENAI_USE_FUNCTIONS, DEFAULT_EXECUTE_SHELL_CMD, SHELL_INTERACTION (permission settings) only; the API key is never read into a row",
			ReadsSecretKind: true,
		}, parseConfig),
		parser.New(parser.Spec{
			ID: "shellgpt/functions", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"functions"}, Names: []string{"*.py", "*.json"},
			Doc: "functions/*.py (the functions the model may call: file names only) and roles/*.json (role names), at the file's mtime",
		}, parseFunctions),
	}
}

// message is one OpenAI chat message as sgpt/handlers/handler.py appends
// it: {role, content} with assistant tool_calls [{id, type, function:
// {name, arguments}}] and tool {content, tool_call_id}; before 1.5.0 an
// assistant function_call {name, arguments} and a function {name,
// content}.
type message struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	Name         string          `json:"name"`
	ToolCallID   string          `json:"tool_call_id"`
	ToolCalls    []toolCall      `json:"tool_calls"`
	FunctionCall *function       `json:"function_call"`
}

type toolCall struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function function `json:"function"`
}

type function struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "chat not read: "+err.Error())
		return nil
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(b, &msgs); err != nil {
		out.Problem(0, "not a chat (a JSON array of messages): "+parser.JSONError(err))
		return nil
	}
	sid := path.Base(strings.ReplaceAll(in.Path, "\\", "/"))
	if e := parser.SettingEvent(&in.File); e.TimeBasis == timeline.TimeFileMTime {
		e.SessionID, e.Text = sid, fmt.Sprintf("chat cache last written (file mtime): %d message(s) kept; ShellGPT keeps the first and the last CHAT_CACHE_LENGTH messages of a chat and records no time on them", len(msgs))
		out.Event(e)
	}
	names := map[string]string{}
	lastFunc := ""
	for i, raw := range msgs {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		var m message
		if err := json.Unmarshal(raw, &m); err != nil {
			out.Report(n, parser.KindSkippedRecord, "not a chat message: "+parser.JSONError(err))
			continue
		}
		ev := func(tt timeline.TurnType, text string) timeline.Event {
			return timeline.Event{SessionID: sid, TurnType: tt, Text: text, SourceLine: n, TimeBasis: timeline.TimeNone}
		}
		text := contentText(m.Content)
		emitted := false
		switch m.Role {
		case "system":
			out.Event(ev(timeline.System, "role: "+text))
			emitted = true
		case "user":
			out.Event(ev(timeline.User, text))
			emitted = true
		case "assistant":
			if strings.TrimSpace(text) != "" {
				out.Event(ev(timeline.Assistant, text))
				emitted = true
			}
			for k, c := range m.ToolCalls {
				e := ev(timeline.ToolUse, callText(c.Function.Name, c.Function.Arguments))
				e.ToolName, e.ToolUseID, e.ToolInput = c.Function.Name, c.ID, argsJSON(c.Function.Arguments)
				if c.ID != "" {
					e.RecordID = c.ID
					names[c.ID] = c.Function.Name
				} else {
					e.ToolUseID = sid + ":" + strconv.FormatInt(n, 10) + "#" + strconv.Itoa(k)
				}
				out.Event(e)
				emitted = true
			}
			if f := m.FunctionCall; f != nil {
				lastFunc = sid + ":" + strconv.FormatInt(n, 10)
				e := ev(timeline.ToolUse, callText(f.Name, f.Arguments))
				e.ToolName, e.ToolUseID, e.ToolInput = f.Name, lastFunc, argsJSON(f.Arguments)
				out.Event(e)
				emitted = true
			}
		case "tool":
			e := ev(timeline.ToolResult, text)
			e.ToolUseID, e.ToolName = m.ToolCallID, names[m.ToolCallID]
			if m.ToolCallID != "" {
				e.RecordID = m.ToolCallID + "#output"
			}
			out.Event(e)
			emitted = true
		case "function":
			e := ev(timeline.ToolResult, text)
			e.ToolUseID, e.ToolName = lastFunc, m.Name
			out.Event(e)
			emitted = true
		default:
			out.Event(ev(timeline.System, m.Role+": "+text))
			emitted = true
		}
		if !emitted {
			out.Skip(n, "no_evidence:empty_assistant")
		}
	}
	return nil
}

// callText is the shell command of execute_shell_command (the function
// ShellGPT ships), else the compact arguments.
func callText(name string, args json.RawMessage) string {
	a := argsJSON(args)
	var m map[string]any
	if json.Unmarshal([]byte(a), &m) == nil {
		for _, k := range []string{"shell_command", "command", "cmd"} {
			if s, ok := m[k].(string); ok {
				return s
			}
		}
	}
	return strings.TrimSpace(name + " " + a)
}

// argsJSON returns the arguments as compact JSON: OpenAI sends them as a
// JSON string holding JSON.
func argsJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			raw = []byte(s)
		}
	}
	var c bytes.Buffer
	if json.Compact(&c, raw) != nil {
		q, _ := json.Marshal(string(raw))
		return string(q)
	}
	return c.String()
}

// contentText is a message's content: a string as is, null as "", an
// array of parts as their text joined.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var t []string
		for _, p := range parts {
			if p.Text != "" {
				t = append(t, p.Text)
			} else {
				t = append(t, "["+p.Type+"]")
			}
		}
		return strings.Join(t, "\n")
	}
	return string(raw)
}

func parseResponseCache(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "cached response not read: "+err.Error())
		return nil
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Skip(1, "no_evidence:empty_response")
		return nil
	}
	e := parser.SettingEvent(&in.File)
	e.TurnType, e.Text, e.SourceLine, e.Secondary = timeline.Assistant, string(b), 1, true
	out.Event(e)
	return nil
}

// settingKeys are the .sgptrc keys read; no other key (OPENAI_API_KEY,
// API_BASE_URL and the rest) reaches a row.
var settingKeys = map[string]string{
	"DEFAULT_MODEL":             "model setting: ",
	"OPENAI_USE_FUNCTIONS":      "permission setting: ",
	"DEFAULT_EXECUTE_SHELL_CMD": "permission setting: ",
	"SHELL_INTERACTION":         "permission setting: ",
}

// parseConfig reads .sgptrc, KEY=value lines as sgpt/config.py writes
// them ("#" comments allowed).
func parseConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	file := parser.DisplayFile(&in.File)
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		t := strings.TrimSpace(string(line))
		if strings.HasPrefix(t, "#") {
			out.Skip(n, "comment")
			return nil
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			out.Report(n, parser.KindSkippedRecord, "not a KEY=value line")
			return nil
		}
		prefix, read := settingKeys[k]
		if !read {
			out.Skip(n, "setting_not_read")
			return nil
		}
		e := parser.SettingEvent(&in.File)
		e.SourceLine = n
		if k == "DEFAULT_MODEL" {
			e.Text = fmt.Sprintf("%s%s (from %s, file mtime)", prefix, parser.RedactSecrets(v), file)
		} else {
			e.Text = fmt.Sprintf("%s%s=%s (from %s, file mtime)", prefix, k, parser.RedactSecrets(v), file)
		}
		out.Event(e)
		return nil
	})
}

// parseFunctions gives one row per function or role file, by name: the
// function store is what the model may run (execute_shell_command runs a
// shell command without asking).
func parseFunctions(ctx context.Context, in *parser.Input, out parser.Sink) error {
	base := path.Base(strings.ReplaceAll(in.Path, "\\", "/"))
	e := parser.SettingEvent(&in.File)
	e.SourceLine = 0
	file := parser.DisplayFile(&in.File)
	switch {
	case strings.HasSuffix(base, ".py"):
		e.Text = fmt.Sprintf("permission setting: function the model may call: %s (from %s, file mtime)", strings.TrimSuffix(base, ".py"), file)
	case strings.HasSuffix(base, ".json"):
		e.Text = fmt.Sprintf("role defined: %s (from %s, file mtime)", strings.TrimSuffix(base, ".json"), file)
	default:
		return nil
	}
	out.Event(e)
	return nil
}

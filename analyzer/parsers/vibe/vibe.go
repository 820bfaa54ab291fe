package vibe

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "vibe"

// Parsers returns the Mistral Vibe parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "vibe/messages", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"messages.jsonl"},
			Doc: "logs/session/<folder>/messages.jsonl LLM messages: typed prompts, injected context, reasoning, replies, tool calls and results (session, parent, time and the model from meta.json)",
		}, parseMessages),
		parser.New(parser.Spec{
			ID: "vibe/meta", Agent: Agent, Version: 2,
			Targets: []string{"sessions"}, Names: []string{"meta.json"},
			Doc: "logs/session/<folder>/meta.json session metadata: start and end, parent session, git, folder, title, model, every token and step counter",
		}, parseMeta),
	}
}

type meta struct {
	SessionID string                 `json:"session_id"`
	Parent    *string                `json:"parent_session_id"`
	Start     string                 `json:"start_time"`
	End       *string                `json:"end_time"`
	Commit    *string                `json:"git_commit"`
	Branch    *string                `json:"git_branch"`
	Env       map[string]*string     `json:"environment"`
	Username  string                 `json:"username"`
	Title     *string                `json:"title"`
	Stats     map[string]json.Number `json:"stats"`
	Model     string                 `json:"model"`
	Config    struct {
		ActiveModel string `json:"active_model"`
	} `json:"config"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// model is the session's model meta.json names: model, else
// config.active_model (the model active when Vibe last wrote meta.json).
func (m meta) model() string {
	if m.Model != "" {
		return m.Model
	}
	return m.Config.ActiveModel
}

// readMeta reads the meta.json beside a session file.
func readMeta(in *parser.Input) (meta, bool) {
	b, ok := in.ReadRelated(path.Join(path.Dir(in.Path), "meta.json"), 4<<20)
	var m meta
	if !ok || json.Unmarshal(b, &m) != nil {
		return meta{}, false
	}
	return m, true
}

func parseMeta(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 4<<20)
	if err != nil {
		return err
	}
	var m meta
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, "meta.json is not session metadata: "+parser.JSONError(err))
		return nil
	}
	e := timeline.Event{TurnType: timeline.System, SessionID: m.SessionID, ParentSessionID: str(m.Parent), ProjectPath: str(m.Env["working_directory"]),
		SourceLine: 1, TimeBasis: timeline.TimeNone, RecordID: m.SessionID + "#meta"}
	if t, ok := parser.ParseTime(m.Start); ok {
		e.Time, e.TimeBasis = t, timeline.TimeRecorded
	}
	parts := []string{"session " + m.SessionID}
	if t := str(m.Title); t != "" {
		parts = append(parts, "title "+t)
	}
	if s := str(m.End); s != "" {
		parts = append(parts, "ended "+s)
	}
	if m.Username != "" {
		parts = append(parts, "user "+m.Username)
	}
	if c := str(m.Commit); c != "" {
		parts = append(parts, "git "+str(m.Branch)+" at "+c)
	}
	if e.Model = m.model(); e.Model != "" {
		parts = append(parts, "model "+e.Model)
	}
	// The three counters first (as before), then every other stats member
	// in name order: cached and context tokens, the last turn's counters,
	// costs, whatever the release writes.
	first := []string{"session_prompt_tokens", "session_completion_tokens", "steps"}
	rest := make([]string, 0, len(m.Stats))
	for k := range m.Stats {
		if !slices.Contains(first, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range append(first, rest...) {
		if v, ok := m.Stats[k]; ok {
			parts = append(parts, strings.ReplaceAll(k, "_", " ")+" "+v.String())
		}
	}
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
	return nil
}

type message struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Injected  bool            `json:"injected"`
	Reasoning json.RawMessage `json:"reasoning_content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	Name       string `json:"name"`
	ToolCallID string `json:"tool_call_id"`
	MessageID  string `json:"message_id"`
}

// text renders Content: a string, or a list of parts with text.
func text(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var out []string
		for _, p := range parts {
			if p.Text != "" {
				out = append(out, p.Text)
			} else if p.Type != "" {
				out = append(out, "["+p.Type+"]")
			}
		}
		return strings.Join(out, "\n")
	}
	return parser.CompactJSON(raw)
}

func parseMessages(ctx context.Context, in *parser.Input, out parser.Sink) error {
	m, ok := readMeta(in)
	sid := m.SessionID
	if sid == "" {
		sid = path.Base(path.Dir(in.Path))
	}
	var t time.Time
	basis := timeline.TimeNone
	if st, ok2 := parser.ParseTime(m.Start); ok && ok2 {
		t, basis = st, timeline.TimeInherited
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var msg message
		if err := json.Unmarshal(line, &msg); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		base := timeline.Event{SessionID: sid, ParentSessionID: str(m.Parent), ProjectPath: str(m.Env["working_directory"]), SourceLine: n, Time: t, TimeBasis: basis}
		var rows []timeline.Event
		add := func(e timeline.Event) { rows = append(rows, e) }
		body := text(msg.Content)
		switch msg.Role {
		case "user":
			e := base
			e.TurnType, e.Text = timeline.User, body
			if msg.Injected {
				e.TurnType, e.Text = timeline.System, "injected in the user role (not typed): "+body
			}
			add(e)
		case "system":
			e := base
			e.TurnType, e.Text = timeline.System, body
			add(e)
		case "assistant", "":
			// Messages name no model: the one meta.json names is carried
			// onto the rows the model wrote.
			base.Model = m.model()
			if r := text(msg.Reasoning); r != "" {
				e := base
				e.TurnType, e.Text = timeline.Thinking, r
				add(e)
			}
			if body != "" || len(msg.ToolCalls) == 0 {
				e := base
				e.TurnType, e.Text = timeline.Assistant, body
				add(e)
			}
			for _, c := range msg.ToolCalls {
				e := base
				e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolUse, c.Function.Name, c.ID
				args := c.Function.Arguments
				if s, ok := parser.JSONString(args); ok {
					args = json.RawMessage(s)
				}
				e.ToolInput = parser.CompactJSON(args)
				e.Text = headline(args, c.Function.Name)
				add(e)
			}
		case "tool":
			e := base
			e.TurnType, e.ToolName, e.ToolUseID, e.Text = timeline.ToolResult, msg.Name, msg.ToolCallID, body
			add(e)
		default:
			out.Report(n, parser.KindSkippedRecord, "a message of role "+msg.Role)
			return nil
		}
		for i, e := range rows {
			if msg.MessageID != "" {
				e.RecordID = msg.MessageID
				if i > 0 {
					e.RecordID += fmt.Sprintf("#%d", i)
				}
			}
			out.Event(e)
		}
		return nil
	})
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "path", "file_path", "pattern", "url", "query", "task")
}

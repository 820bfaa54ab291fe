package deepseektui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "deepseek-tui"

// Parsers returns the DeepSeek TUI (CodeWhale) parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "deepseek-tui/session", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"},
			Doc:     "sessions/<uuid>.json saved session: metadata (fork or subagent parent, model, workspace, tokens, cost), system prompt, typed prompts, reasoning, replies, tool calls and results, interrupted replies",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "deepseek-tui/approvals", Agent: Agent, Version: 2,
			Targets: []string{"approvals"}, Names: []string{"approval_receipts.jsonl"},
			Doc: "sessions/<uuid>/approval_receipts.jsonl: approval asked and decided (approved once, denied, cancelled, unavailable, retry with a sandbox policy) per tool call",
		}, parseApprovals),
	}
}

type metadata struct {
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	Created      string          `json:"created_at"`
	Updated      string          `json:"updated_at"`
	MessageCount *int            `json:"message_count"`
	Tokens       *int64          `json:"total_tokens"`
	Model        string          `json:"model"`
	Provider     string          `json:"model_provider"`
	Workspace    string          `json:"workspace"`
	Mode         *string         `json:"mode"`
	Cost         json.RawMessage `json:"cost"`
	Parent       *string         `json:"parent_session_id"`
	ForkedAt     *int            `json:"forked_from_message_count"`
	Archived     bool            `json:"archived"`
	SpawnDepth   int             `json:"spawn_depth"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   *bool           `json:"is_error"`
	ImageURL  json.RawMessage `json:"image_url"`
}

type message struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Timestamp string          `json:"timestamp"`
	Model     string          `json:"model"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	st := &state{sid: strings.TrimSuffix(path.Base(in.Path), ".json"), basis: timeline.TimeNone, out: out}
	dec := json.NewDecoder(rc)
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		out.Problem(0, "not a saved session: "+parser.NotJSONObject("the file", parser.ErrNotObject))
		return nil
	}
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return err
		}
		kt, err := dec.Token()
		if err != nil {
			out.Problem(0, "saved session cut short: "+err.Error())
			return nil
		}
		key, _ := kt.(string)
		switch key {
		case "messages":
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				out.Problem(0, "messages is not a list")
				return nil
			}
			var n int64
			for dec.More() {
				if err := ctx.Err(); err != nil {
					return err
				}
				n++
				var m message
				if err := dec.Decode(&m); err != nil {
					var se *json.UnmarshalTypeError
					if errors.As(err, &se) {
						out.Problem(n, "message "+fmt.Sprint(n)+" is not a message: "+parser.JSONError(err))
						continue
					}
					out.Problem(n, fmt.Sprintf("saved session cut short at message %d: %s", n, err.Error()))
					return nil
				}
				st.message(n, m)
			}
			if _, err := dec.Token(); err != nil {
				out.Problem(n, "saved session cut short after message "+fmt.Sprint(n)+": "+err.Error())
				return nil
			}
		default:
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				out.Problem(0, "saved session cut short in "+key+": "+parser.JSONError(err))
				return nil
			}
			st.member(key, raw)
		}
	}
	return nil
}

type state struct {
	sid, parent, project, model string
	start                       time.Time
	basis                       timeline.TimeBasis
	out                         parser.Sink
}

func (s *state) base(n int64) timeline.Event {
	return timeline.Event{SessionID: s.sid, ParentSessionID: s.parent, ProjectPath: s.project, Model: s.model, SourceLine: n, Time: s.start, TimeBasis: s.basis}
}

func (s *state) member(key string, raw json.RawMessage) {
	switch key {
	case "schema_version", "leaf_id":
		// Read into the metadata row's neighbours: nothing to show alone.
	case "metadata":
		var m metadata
		if err := json.Unmarshal(raw, &m); err != nil {
			s.out.Problem(0, "metadata is not session metadata: "+parser.JSONError(err))
			return
		}
		if m.ID != "" {
			s.sid = m.ID
		}
		s.parent, s.project, s.model = str(m.Parent), m.Workspace, m.Model
		e := s.base(0)
		if t, ok := parser.ParseTime(m.Created); ok {
			s.start, s.basis = t, timeline.TimeInherited
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		e.TurnType, e.RecordID = timeline.System, s.sid+"#metadata"
		parts := []string{"session " + s.sid}
		add := func(k, v string) {
			if v != "" {
				parts = append(parts, k+" "+v)
			}
		}
		add("title", m.Title)
		add("updated", m.Updated)
		add("provider", m.Provider)
		add("model", m.Model)
		add("mode", str(m.Mode))
		if m.MessageCount != nil {
			add("messages", fmt.Sprint(*m.MessageCount))
		}
		if m.Tokens != nil {
			add("tokens", fmt.Sprint(*m.Tokens))
		}
		if len(m.Cost) > 0 && string(m.Cost) != "null" {
			add("cost", parser.CompactJSON(m.Cost))
		}
		add("parent", str(m.Parent))
		if m.ForkedAt != nil {
			add("forked after message", fmt.Sprint(*m.ForkedAt))
		}
		if m.SpawnDepth > 0 {
			add("subagent depth", fmt.Sprint(m.SpawnDepth))
		}
		if m.Archived {
			parts = append(parts, "archived")
		}
		e.Text = strings.Join(parts, "; ")
		s.out.Event(e)
	case "system_prompt":
		if p, ok := parser.JSONString(raw); ok && p != "" {
			e := s.base(0)
			e.TurnType, e.Text, e.RecordID = timeline.System, "system prompt: "+p, s.sid+"#system_prompt"
			s.out.Event(e)
		}
	case "journal":
		if string(raw) != "null" {
			s.out.Report(0, parser.KindSkippedRecord, fmt.Sprintf("the session journal (%d bytes, not read)", len(raw)))
		}
	default:
		s.out.Report(0, parser.KindSkippedRecord, "a session member "+key)
	}
}

func (s *state) message(n int64, m message) {
	base := s.base(n)
	if t, ok := parser.ParseTime(m.Timestamp); ok {
		base.Time, base.TimeBasis = t, timeline.TimeRecorded
	}
	if m.Model != "" {
		base.Model = m.Model
	}
	var blocks []block
	if txt, ok := parser.JSONString(m.Content); ok {
		blocks = []block{{Type: "text", Text: txt}}
	} else if err := json.Unmarshal(m.Content, &blocks); err != nil {
		s.out.Problem(n, "a "+m.Role+" message whose content is neither text nor blocks")
		return
	}
	var rows []timeline.Event
	add := func(tt timeline.TurnType, text string) *timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		rows = append(rows, e)
		return &rows[len(rows)-1]
	}
	switch m.Role {
	case "user", "assistant", "assistant_interrupted":
	default:
		s.out.Report(n, parser.KindSkippedRecord, "a message of role "+m.Role)
		return
	}
	skipped := 0
	for _, b := range blocks {
		switch b.Type {
		case "text":
			switch m.Role {
			case "user":
				add(timeline.User, b.Text)
			case "assistant":
				add(timeline.Assistant, b.Text)
			default:
				add(timeline.Assistant, "interrupted before completion: "+b.Text)
			}
		case "thinking":
			t := b.Thinking
			if t == "" {
				t = b.Text
			}
			add(timeline.Thinking, t)
		case "tool_use", "server_tool_use":
			e := add(timeline.ToolUse, headline(b.Input, b.Name))
			e.ToolName, e.ToolUseID, e.ToolInput = b.Name, b.ID, parser.CompactJSON(b.Input)
		case "tool_result", "tool_search_tool_result", "code_execution_tool_result":
			e := add(timeline.ToolResult, parser.JSONText(b.Content))
			e.ToolUseID = b.ToolUseID
			if b.IsError != nil {
				e.IsError = fmt.Sprint(*b.IsError)
			}
		case "image_url":
			add(timeline.System, "an image in the "+m.Role+" message: "+parser.CompactJSON(b.ImageURL))
		default:
			s.out.Report(n, parser.KindSkippedRecord, "a "+b.Type+" block in a "+m.Role+" message")
			skipped++
		}
	}
	if len(rows) == 0 && skipped == 0 {
		s.out.Report(n, parser.KindSkippedRecord, "a "+m.Role+" message with no blocks")
	}
	for _, e := range rows {
		s.out.Event(e)
	}
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "path", "file_path", "pattern", "url", "query", "prompt", "task")
}

type receipt struct {
	Phase      string          `json:"phase"`
	ApprovalID string          `json:"approval_id"`
	ToolCallID string          `json:"tool_call_id"`
	ToolName   string          `json:"tool_name"`
	Outcome    json.RawMessage `json:"outcome"`
	Created    string          `json:"created_at"`
}

func parseApprovals(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sid := path.Base(path.Dir(in.Path))
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r receipt
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		e := timeline.Event{SessionID: sid, TurnType: timeline.System, SourceLine: n, ToolName: r.ToolName, ToolUseID: r.ToolCallID, TimeBasis: timeline.TimeNone}
		if t, ok := parser.ParseTime(r.Created); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		switch r.Phase {
		case "asked":
			e.Text = "approval asked for " + r.ToolName + " (call " + parser.Shown(r.ToolCallID) + ")"
		case "decided":
			var o struct {
				Outcome string          `json:"outcome"`
				Policy  json.RawMessage `json:"policy"`
			}
			_ = json.Unmarshal(r.Outcome, &o)
			verdict := strings.ReplaceAll(o.Outcome, "_", " ")
			if verdict == "" {
				verdict = "no outcome recorded"
			}
			if len(o.Policy) > 0 {
				verdict += " " + parser.CompactJSON(o.Policy)
			}
			e.Text = "approval decided for call " + parser.Shown(r.ToolCallID) + ": " + verdict
		default:
			out.Report(n, parser.KindSkippedRecord, "an approval receipt of phase "+r.Phase)
			return nil
		}
		if r.ApprovalID != "" {
			e.RecordID = r.ApprovalID + "#" + r.Phase
		}
		out.Event(e)
		return nil
	})
}

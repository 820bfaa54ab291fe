package commandcode

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

const agentName = "command-code"

const maxWhole = 16 << 20

// Parsers returns the Command Code parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "command-code/session", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: "projects/<cwd slug>/<session>.jsonl: the v3 entry tree (session header, message, model and effort changes, compaction, branch summaries, labels, session names, custom entries) and the v2/v1 message lines before it: typed prompts, automated inputs, replies, reasoning, tool calls and results by call id",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "command-code/session-meta", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-meta"}, Names: []string{"*.meta.json"},
			Doc: "projects/<cwd slug>/<session>.meta.json: the session's title (renamed or not), model, and the session it was forked or branched from, at the file's mtime",
		}, parseMeta),
	}
}

// line is one line of a session file: a v3 header {type: "session",
// version: 3, id, timestamp, cwd, parentSession} or entry {type, id,
// parentId, timestamp, ...}, or a v2 stored entry {id, timestamp,
// sessionId, parentId, role, content, gitBranch, metadata: {version: 2}}.
type line struct {
	Type          string          `json:"type"`
	Version       *int            `json:"version"`
	ID            string          `json:"id"`
	ParentID      *string         `json:"parentId"`
	Timestamp     string          `json:"timestamp"`
	Cwd           string          `json:"cwd"`
	ParentSession string          `json:"parentSession"`
	SessionID     string          `json:"sessionId"`
	Role          string          `json:"role"`
	Content       json.RawMessage `json:"content"`
	Message       *message        `json:"message"`
	Model         json.RawMessage `json:"model"`
	Effort        json.RawMessage `json:"effort"`
	Summary       string          `json:"summary"`
	TokensBefore  *int64          `json:"tokensBefore"`
	FromID        string          `json:"fromId"`
	TargetID      string          `json:"targetId"`
	Label         *string         `json:"label"`
	Name          *string         `json:"name"`
	CustomType    string          `json:"customType"`
	Metadata      *struct {
		Cwd string `json:"cwd"`
	} `json:"metadata"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Meta    *struct {
		IsMeta      bool   `json:"isMeta"`
		IsAutomated bool   `json:"isAutomated"`
		Source      string `json:"source"`
	} `json:"meta"`
}

// part is one content part: the AI SDK's text, reasoning, tool-call
// {toolCallId, toolName, input}, tool-result {toolCallId, toolName,
// output: {type, value}}, image, file; v1 lines keep Anthropic's
// tool_use {id, name, input} and tool_result {tool_use_id, content,
// is_error}.
type part struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	Thinking   string          `json:"thinking"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Input      json.RawMessage `json:"input"`
	Output     json.RawMessage `json:"output"`
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	ToolUseID  string          `json:"tool_use_id"`
	Content    json.RawMessage `json:"content"`
	IsError    bool            `json:"is_error"`
	MediaType  string          `json:"mediaType"`
}

type session struct {
	out     parser.Sink
	sid     string
	parent  string
	project string
	names   map[string]string
}

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	s := &session{out: out, sid: strings.TrimSuffix(path.Base(p), ".jsonl"), names: map[string]string{}}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		s.line(n, &l)
		return nil
	})
}

func (s *session) line(n int64, l *line) {
	base := timeline.Event{SessionID: s.sid, ParentSessionID: s.parent, ProjectPath: s.project, SourceLine: n, RecordID: l.ID}
	if t, ok := parser.ParseTime(l.Timestamp); ok {
		base.Time = t
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	sys := func(text string) {
		e := base
		e.TurnType, e.Text = timeline.System, text
		s.out.Event(e)
	}
	switch l.Type {
	case "session":
		if l.ID != "" {
			s.sid = l.ID
		}
		s.project = l.Cwd
		if l.ParentSession != "" {
			s.parent = strings.TrimSuffix(path.Base(strings.ReplaceAll(l.ParentSession, "\\", "/")), ".jsonl")
		}
		s.out.Skip(n, "session_header")
	case "message":
		if l.Message == nil {
			s.out.Report(n, parser.KindSkippedRecord, "message entry without a message")
			return
		}
		if m := parser.StringValue(l.Model); m != "" {
			base.Model = m
		}
		s.message(n, base, l.Message)
	case "model_change":
		sys("model changed: " + parser.JSONText(l.Model))
	case "effort_change":
		sys("reasoning effort changed: " + parser.JSONText(l.Effort))
	case "compaction":
		t := "context compacted (the entries before stay in the file)"
		if l.TokensBefore != nil {
			t += fmt.Sprintf(", %d tokens before", *l.TokensBefore)
		}
		sys(t + ": " + l.Summary)
	case "branch_summary":
		sys("branch left (from entry " + l.FromID + "), summary: " + l.Summary)
	case "label":
		lb := "(removed)"
		if l.Label != nil {
			lb = *l.Label
		}
		sys("label on entry " + l.TargetID + ": " + lb)
	case "session_info":
		if l.Name != nil {
			sys("session named: " + *l.Name)
		} else {
			sys("session name cleared")
		}
	case "custom":
		sys("custom entry (" + l.CustomType + ")")
	case "custom_message":
		sys("custom message (" + l.CustomType + "): " + contentText(l.Content))
	case "":
		if l.Role == "" {
			s.out.Report(n, parser.KindSkippedRecord, "line with neither a type nor a role")
			return
		}
		// v2 and v1 lines: the message is the line itself.
		if l.SessionID != "" {
			s.sid = l.SessionID
		}
		if l.Metadata != nil && l.Metadata.Cwd != "" && s.project == "" {
			s.project = l.Metadata.Cwd
			base.ProjectPath = s.project
		}
		base.SessionID = s.sid
		s.message(n, base, &message{Role: l.Role, Content: l.Content})
	default:
		s.out.Report(n, parser.KindSkippedRecord, "unknown entry type "+strconv.Quote(l.Type))
	}
}

func (s *session) message(n int64, base timeline.Event, m *message) {
	id := base.RecordID
	k := 0
	emit := func(e timeline.Event) {
		if id != "" {
			e.RecordID = id
			if k > 0 {
				e.RecordID = id + "#" + strconv.Itoa(k)
			}
		}
		k++
		s.out.Event(e)
	}
	ev := func(tt timeline.TurnType, text string) timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		return e
	}
	automated := m.Meta != nil && (m.Meta.IsMeta || m.Meta.IsAutomated)
	if str, ok := parser.JSONString(m.Content); ok {
		m.Content = nil
		switch {
		case strings.TrimSpace(str) == "":
		case m.Role == "user" && !automated:
			emit(ev(timeline.User, str))
		case m.Role == "user":
			emit(ev(timeline.System, automatedText(m, str)))
		case m.Role == "assistant":
			emit(ev(timeline.Assistant, str))
		default:
			emit(ev(timeline.System, m.Role+": "+str))
		}
		if k == 0 {
			s.out.Skip(n, "no_evidence:empty_message")
		}
		return
	}
	var parts []part
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		s.out.Report(n, parser.KindSkippedRecord, "message content not read: "+parser.JSONError(err))
		return
	}
	var text []string
	flush := func() {
		t := strings.Join(text, "\n")
		text = nil
		if strings.TrimSpace(t) == "" {
			return
		}
		switch {
		case m.Role == "user" && !automated:
			emit(ev(timeline.User, t))
		case m.Role == "user":
			emit(ev(timeline.System, automatedText(m, t)))
		case m.Role == "assistant":
			emit(ev(timeline.Assistant, t))
		default:
			emit(ev(timeline.System, m.Role+": "+t))
		}
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			text = append(text, p.Text)
		case "image", "file":
			text = append(text, "["+p.Type+" "+p.MediaType+"]")
		case "reasoning", "thinking":
			flush()
			t := p.Text
			if t == "" {
				t = p.Thinking
			}
			if strings.TrimSpace(t) != "" {
				emit(ev(timeline.Thinking, t))
			}
		case "tool-call", "tool_use":
			flush()
			cid, name := first(p.ToolCallID, p.ID), first(p.ToolName, p.Name)
			e := ev(timeline.ToolUse, "")
			e.ToolName, e.ToolUseID, e.ToolInput = name, cid, parser.CompactJSON(p.Input)
			e.Text = callText(name, e.ToolInput)
			if cid != "" {
				s.names[cid] = name
			}
			emit(e)
		case "tool-result", "tool_result":
			flush()
			cid := first(p.ToolCallID, p.ToolUseID)
			text, isErr := resultText(p)
			e := ev(timeline.ToolResult, text)
			e.ToolUseID, e.ToolName, e.IsError = cid, first(s.names[cid], p.ToolName), strconv.FormatBool(isErr)
			emit(e)
		default:
			text = append(text, "["+p.Type+"]")
		}
	}
	flush()
	if k == 0 {
		s.out.Skip(n, "no_evidence:empty_message")
	}
}

func automatedText(m *message, t string) string {
	src := ""
	if m.Meta != nil && m.Meta.Source != "" {
		src = " (" + m.Meta.Source + ")"
	}
	return "automated input, not typed" + src + ": " + t
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// resultText is a tool result's output: the AI SDK's {type, value}
// (error-text and error-json are errors), or v1's content and is_error.
func resultText(p part) (string, bool) {
	if len(bytes.TrimSpace(p.Output)) > 0 {
		var o struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal(p.Output, &o) == nil && o.Type != "" {
			return parser.JSONText(o.Value), strings.HasPrefix(o.Type, "error")
		}
		return parser.JSONText(p.Output), false
	}
	return contentText(p.Content), p.IsError
}

// contentText is a string, or parts' text joined.
func contentText(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		return parser.JSONText(raw)
	}
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

func callText(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"command", "file_path", "path", "url", "query", "pattern"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return strings.TrimSpace(name + " " + args)
}

// meta is <session>.meta.json.
type meta struct {
	Title           string `json:"title"`
	UserRenamed     bool   `json:"userRenamed"`
	Model           string `json:"model"`
	ParentSessionID string `json:"parentSessionId"`
	ForkedAt        string `json:"forkedAt"`
}

func parseMeta(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "meta.json not read: "+err.Error())
		return nil
	}
	var m meta
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, "not a Command Code session meta: "+parser.JSONError(err))
		return nil
	}
	sid := strings.TrimSuffix(path.Base(strings.ReplaceAll(in.Path, "\\", "/")), ".meta.json")
	file := parser.DisplayFile(&in.File)
	emit := func(text string) {
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.SourceLine, e.ParentSessionID = sid, 1, m.ParentSessionID
		e.Text = text + " (from " + file + ", file mtime)"
		out.Event(e)
	}
	if m.Title != "" {
		how := "generated"
		if m.UserRenamed {
			how = "renamed by the user"
		}
		emit("session title (" + how + "): " + m.Title)
	}
	if m.Model != "" {
		emit("model setting: " + m.Model)
	}
	if m.ParentSessionID != "" {
		t := "session forked from " + m.ParentSessionID
		if m.ForkedAt != "" {
			t += " at " + m.ForkedAt
		}
		emit(t)
	}
	return nil
}

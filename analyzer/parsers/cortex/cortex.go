package cortex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "cortex"

// Parsers returns the Cortex Code parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "cortex/session", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"sessions"},
			Doc:     "conversations/<uuid>.json and its .back.<n>.json backups: session metadata, cached permission decisions, and an inline history (typed prompts, injected reminders, reasoning, replies, tool calls and results)",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "cortex/history", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"history"},
			Doc:     "conversations/<uuid>.history.jsonl: one message a line: typed prompts, injected reminders, reasoning, replies, tool calls and results",
		}, parseHistory),
	}
}

var backupRe = regexp.MustCompile(`\.back\.[^/]*\.json$`)

type block struct {
	Type         string `json:"type"`
	Text         string `json:"text"`
	Thinking     string `json:"thinking"`
	InternalOnly *bool  `json:"internalOnly"`
	IsUserPrompt *bool  `json:"is_user_prompt"`
	ToolUse      *struct {
		ID    string          `json:"tool_use_id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_use"`
	ToolResult *struct {
		Name    string          `json:"name"`
		ID      string          `json:"tool_use_id"`
		Content json.RawMessage `json:"content"`
		Status  string          `json:"status"`
	} `json:"tool_result"`
}

type message struct {
	Role    string  `json:"role"`
	ID      string  `json:"id"`
	Content []block `json:"content"`
	Sent    string  `json:"user_sent_time"`
}

type state struct {
	sid, project string
	last         time.Time
	replayed     bool
	out          parser.Sink
}

func (s *state) message(n int64, m message) {
	base := timeline.Event{SessionID: s.sid, ProjectPath: s.project, SourceLine: n, TimeBasis: timeline.TimeNone, Replayed: s.replayed}
	if t, ok := parser.ParseTime(m.Sent); ok {
		base.Time, base.TimeBasis = t, timeline.TimeRecorded
		s.last = t
	} else if !s.last.IsZero() {
		base.Time, base.TimeBasis = s.last, timeline.TimeInherited
	}
	if m.Role != "user" && m.Role != "assistant" {
		s.out.Report(n, parser.KindSkippedRecord, "a message of role "+m.Role)
		return
	}
	var rows []timeline.Event
	add := func(tt timeline.TurnType, text string) *timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		rows = append(rows, e)
		return &rows[len(rows)-1]
	}
	skipped := 0
	for _, b := range m.Content {
		switch {
		case b.Type == "text":
			internal := b.InternalOnly != nil && *b.InternalOnly
			switch {
			case internal:
				add(timeline.System, "internal only (not shown to the person): "+b.Text)
			case m.Role == "user" && (strings.Contains(b.Text, "<system-reminder>") || (b.IsUserPrompt != nil && !*b.IsUserPrompt)):
				add(timeline.System, "injected in the user role (not typed): "+b.Text)
			case m.Role == "user":
				add(timeline.User, b.Text)
			default:
				add(timeline.Assistant, b.Text)
			}
		case b.Type == "thinking":
			// The block's text, as a text block holds it; an Anthropic-style
			// block keeps it under "thinking" instead.
			t := b.Text
			if t == "" {
				t = b.Thinking
			}
			if strings.TrimSpace(t) == "" {
				s.out.Skip(n, "no_evidence:empty_thinking")
				skipped++
				continue
			}
			add(timeline.Thinking, t)
		case b.Type == "tool_use" && b.ToolUse != nil:
			e := add(timeline.ToolUse, headline(b.ToolUse.Input, b.ToolUse.Name))
			e.ToolName, e.ToolUseID, e.ToolInput = b.ToolUse.Name, b.ToolUse.ID, parser.CompactJSON(b.ToolUse.Input)
		case b.Type == "tool_result" && b.ToolResult != nil:
			r := b.ToolResult
			e := add(timeline.ToolResult, resultText(r.Content))
			e.ToolName, e.ToolUseID = r.Name, r.ID
			switch r.Status {
			case "error":
				e.IsError = "true"
			case "success":
				e.IsError = "false"
			}
		default:
			s.out.Report(n, parser.KindSkippedRecord, "a "+b.Type+" block in a "+m.Role+" message")
			skipped++
		}
	}
	if len(rows) == 0 && skipped == 0 {
		s.out.Report(n, parser.KindSkippedRecord, "a "+m.Role+" message with no blocks")
	}
	for i, e := range rows {
		if m.ID != "" {
			e.RecordID = m.ID
			if i > 0 {
				e.RecordID += fmt.Sprintf("#%d", i)
			}
		}
		s.out.Event(e)
	}
}

// resultText joins a result's text blocks; anything else stays as JSON.
func resultText(raw json.RawMessage) string {
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return parser.JSONText(raw)
	}
	var out []string
	for _, b := range bs {
		if b.Type == "text" {
			out = append(out, b.Text)
		} else {
			bb, _ := json.Marshal(b)
			out = append(out, parser.CompactJSON(bb))
		}
	}
	return strings.Join(out, "\n")
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "cmd", "file_path", "path", "pattern", "url", "query", "sql", "prompt")
}

func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	st := &state{sid: strings.TrimSuffix(path.Base(in.Path), ".history.jsonl"), out: out}
	// The session file beside it names the folder (read only when small:
	// one with an inline history is read by cortex/session).
	if b, ok := in.ReadRelated(strings.TrimSuffix(in.Path, ".history.jsonl")+".json", 1<<20); ok {
		var m meta
		if json.Unmarshal(b, &m) == nil {
			st.project = m.Dir
			if st.project == "" {
				st.project = m.GitRoot
			}
		}
	}
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		st.message(n, m)
		return nil
	})
}

type meta struct {
	SessionID  string            `json:"session_id"`
	Title      string            `json:"title"`
	Connection string            `json:"connection_name"`
	Dir        string            `json:"working_directory"`
	GitRoot    string            `json:"git_root"`
	Branch     string            `json:"git_branch"`
	Created    string            `json:"created_at"`
	Updated    string            `json:"last_updated"`
	Length     *int              `json:"history_length"`
	Type       string            `json:"session_type"`
	Perms      map[string]string `json:"permission_cache"`
}

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	base := path.Base(in.Path)
	st := &state{out: out, replayed: backupRe.MatchString(base)}
	st.sid = strings.TrimSuffix(backupRe.ReplaceAllString(base, ""), ".json")
	dec := json.NewDecoder(rc)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		out.Problem(0, "not a session: "+parser.NotJSONObject("the file", parser.ErrNotObject))
		return nil
	}
	var m meta
	var fields []string
	// stop ends the walk where the session's shape makes the rest
	// unreadable (its problem already written); done says the file gives
	// no session row either.
	stop, done := errors.New("stop"), errors.New("done")
	err = parser.EachMember(ctx, dec, func(key string) error {
		if key == "history" {
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				out.Problem(0, "history is not a list")
				return done
			}
			n, err := parser.EachElement(ctx, dec, func(n int64) error {
				var msg message
				if err := dec.Decode(&msg); err != nil {
					out.Problem(n, fmt.Sprintf("session cut short at history message %d: %s", n, parser.JSONError(err)))
					return stop
				}
				st.message(n, msg)
				return nil
			})
			var te *parser.TokenError
			if errors.As(err, &te) {
				out.Problem(n, "session cut short after history message "+fmt.Sprint(n)+": "+te.Err.Error())
				return stop
			}
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			out.Problem(0, "session cut short in "+key+": "+parser.JSONError(err))
			return stop
		}
		fields = append(fields, key)
		// Keep the session id, folder and start for the history that may follow.
		one, _ := json.Marshal(map[string]json.RawMessage{key: raw})
		if err := json.Unmarshal(one, &m); err != nil {
			out.Problem(0, "session member "+key+" is not of its type: "+parser.JSONError(err))
			return nil
		}
		switch key {
		case "session_id":
			if m.SessionID != "" {
				st.sid = m.SessionID
			}
		case "working_directory", "git_root":
			st.project = m.Dir
			if st.project == "" {
				st.project = m.GitRoot
			}
		case "created_at":
			if t, ok := parser.ParseTime(m.Created); ok && st.last.IsZero() {
				st.last = t
			}
		}
		return nil
	})
	var te *parser.TokenError
	switch {
	case errors.Is(err, done):
		return nil
	case errors.Is(err, stop):
	case errors.As(err, &te) && te.Stage == parser.TokenKey:
		out.Problem(0, "session cut short: "+te.Err.Error())
	case errors.As(err, &te):
		// the closing '}', which this reader never required
	case err != nil:
		return err
	}
	if len(fields) == 0 {
		return nil
	}
	e := timeline.Event{SessionID: st.sid, ProjectPath: st.project, TurnType: timeline.System, TimeBasis: timeline.TimeNone, RecordID: st.sid + "#session", Replayed: st.replayed}
	created, ok := parser.ParseTime(m.Created)
	if ok {
		e.Time, e.TimeBasis = created, timeline.TimeRecorded
	}
	parts := []string{"session " + parser.Shown(st.sid)}
	if st.replayed {
		parts = append(parts, "backup copy "+base)
	}
	for _, kv := range [][2]string{{"title ", m.Title}, {"type ", m.Type}, {"connection ", m.Connection}, {"git ", m.Branch}, {"git root ", m.GitRoot}, {"updated ", m.Updated}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+kv[1])
		}
	}
	if m.Length != nil {
		parts = append(parts, fmt.Sprintf("history length %d", *m.Length))
	}
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
	tools := make([]string, 0, len(m.Perms))
	for k := range m.Perms {
		tools = append(tools, k)
	}
	sort.Strings(tools)
	for _, k := range tools {
		p := e
		p.Text, p.ToolName, p.RecordID = "cached permission decision for "+k+": "+m.Perms[k], k, st.sid+"#permission:"+k
		out.Event(p)
	}
	for _, k := range fields {
		switch k {
		case "session_id", "title", "connection_name", "working_directory", "git_root", "git_branch", "created_at", "last_updated", "history_length", "session_type", "permission_cache":
		default:
			out.Report(0, parser.KindSkippedRecord, "a session member "+k)
		}
	}
	return nil
}

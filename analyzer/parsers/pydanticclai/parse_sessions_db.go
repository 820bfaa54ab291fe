package pydanticclai

import (
	"context"
	"fmt"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sessionsStore is CLAI 2.0's sessions.db as pydantic-ai-harness's
// SqliteConversationStore creates it (step_persistence/conversations.py at
// 131e227): conversations(id, revision, metadata, messages, search_text,
// updated_at). The step store's tables (runs, events, snapshots,
// tool_effects, media) may share the file; they are not read.
var sessionsStore = parser.SQLiteStore{Name: "a CLAI sessions", Tables: parser.SQLiteSchema{
	"conversations": {"id", "revision", "metadata", "messages", "updated_at"},
}}

// summary is ConversationSummary (the metadata column).
type summary struct {
	ID          string      `json:"id"`
	Workspace   string      `json:"workspace"`
	UpdatedAt   string      `json:"updated_at"`
	Revision    json.Number `json:"revision"`
	Title       string      `json:"title"`
	TitleSource string      `json:"title_source"`
	Model       *string     `json:"model"`
	Outcome     string      `json:"outcome"`
	RunID       *string     `json:"run_id"`
	OwnerPID    *int64      `json:"owner_pid"`
	Messages    json.Number `json:"message_count"`
	Tokens      json.Number `json:"total_tokens"`
}

// modelMessage is a pydantic-ai ModelRequest or ModelResponse as
// ModelMessagesTypeAdapter dumps it (mode json).
type modelMessage struct {
	Kind         string            `json:"kind"`
	Parts        []json.RawMessage `json:"parts"`
	Timestamp    string            `json:"timestamp"`
	Instructions *string           `json:"instructions"`
	ModelName    string            `json:"model_name"`
	Provider     string            `json:"provider_name"`
	Finish       string            `json:"finish_reason"`
	State        string            `json:"state"`
}

type part struct {
	PartKind   string          `json:"part_kind"`
	Content    json.RawMessage `json:"content"`
	Timestamp  string          `json:"timestamp"`
	ToolName   string          `json:"tool_name"`
	ToolCallID string          `json:"tool_call_id"`
	Args       json.RawMessage `json:"args"`
}

func parseSessionsDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, sessionsStore, out)
	if err != nil {
		return err
	}
	// A deleted conversation (the browser's delete: DELETE FROM
	// conversations) can survive in freed space: its rows come back
	// marked recovered.
	carved := parser.Carve(ctx, in, db, out)
	defer carved.Done(out)
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "conversations", Read: func() error {
		err := parser.EachTableRow(ctx, db, "conversations", func(r parser.Row) error {
			conversation(r, out)
			return nil
		})
		if err != nil {
			return err
		}
		for _, rec := range carved.Records("conversations") {
			row := parser.Row{Vals: rec.Row()}
			if rec.RowidKnown {
				row.Rowid = rec.Rowid
			}
			conversation(row, parser.RecoveredSink(out, &rec))
		}
		return nil
	}})
}

func conversation(r parser.Row, out parser.Sink) {
	sid := r.Get("id")
	var s summary
	metaOK := json.Unmarshal([]byte(r.Get("metadata")), &s) == nil
	if !metaOK {
		var err error = json.Unmarshal([]byte(r.Get("metadata")), &s)
		out.Problem(r.Rowid, parser.NotJSONObject("the metadata of conversation "+sid, err))
	}
	head := timeline.Event{SessionID: sid, ProjectPath: s.Workspace, SourceLine: r.Rowid, TurnType: timeline.System, RecordID: sid + "#summary", TimeBasis: timeline.TimeNone}
	if t, ok := parser.ParseTime(r.Get("updated_at")); ok {
		head.Time, head.TimeBasis = t, timeline.TimeRecorded
	}
	if s.Model != nil {
		head.Model = *s.Model
	}
	if metaOK {
		txt := []string{fmt.Sprintf("session %q (title %s)", s.Title, s.TitleSource), "revision " + r.Get("revision"), "outcome " + s.Outcome, "messages " + s.Messages.String(), "tokens " + s.Tokens.String(), "updated " + r.Get("updated_at")}
		if s.Workspace != "" {
			txt = append(txt, "workspace "+s.Workspace)
		}
		if s.RunID != nil {
			txt = append(txt, "run "+*s.RunID)
		}
		if s.OwnerPID != nil {
			txt = append(txt, fmt.Sprintf("owner pid %d", *s.OwnerPID))
		}
		head.Text = strings.Join(txt, "; ")
		out.Event(head)
	}
	var msgs []modelMessage
	if err := json.Unmarshal([]byte(r.Get("messages")), &msgs); err != nil {
		out.Problem(r.Rowid, parser.NotJSONArray("the messages of conversation "+sid, err))
		return
	}
	for i, m := range msgs {
		messageRows(r.Rowid, sid, s.Workspace, i, &m, out)
	}
}

func messageRows(rowid int64, sid, project string, i int, m *modelMessage, out parser.Sink) {
	mt, _ := parser.ParseTime(m.Timestamp)
	k := 0
	emit := func(tt timeline.TurnType, text, ts string) *timeline.Event {
		e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: rowid, TurnType: tt, Text: text, TimeBasis: timeline.TimeNone, Model: m.ModelName}
		if t, ok := parser.ParseTime(ts); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		} else if !mt.IsZero() {
			e.Time, e.TimeBasis = mt, timeline.TimeInherited
		}
		e.RecordID = fmt.Sprintf("%s/%d#%d", sid, i, k)
		k++
		return &e
	}
	if m.Instructions != nil && *m.Instructions != "" {
		out.Event(*emit(timeline.System, "instructions (not typed): "+*m.Instructions, ""))
	}
	for _, raw := range m.Parts {
		var p part
		if err := json.Unmarshal(raw, &p); err != nil {
			out.Problem(rowid, parser.NotJSONObject(fmt.Sprintf("part of message %d of conversation %s", i, sid), err))
			continue
		}
		switch p.PartKind {
		case "user-prompt":
			out.Event(*emit(timeline.User, userText(p.Content), p.Timestamp))
		case "system-prompt":
			out.Event(*emit(timeline.System, "system prompt: "+parser.JSONText(p.Content), p.Timestamp))
		case "instruction":
			out.Event(*emit(timeline.System, "instruction (not typed): "+parser.JSONText(p.Content), p.Timestamp))
		case "tool-return", "builtin-tool-return":
			e := emit(timeline.ToolResult, parser.JSONText(p.Content), p.Timestamp)
			e.ToolName, e.ToolUseID = p.ToolName, p.ToolCallID
			out.Event(*e)
		case "retry-prompt":
			if p.ToolName != "" {
				e := emit(timeline.ToolResult, "retry: "+parser.JSONText(p.Content), p.Timestamp)
				e.ToolName, e.ToolUseID, e.IsError = p.ToolName, p.ToolCallID, "true"
				out.Event(*e)
			} else {
				out.Event(*emit(timeline.System, "retry prompt to the model: "+parser.JSONText(p.Content), p.Timestamp))
			}
		case "text":
			out.Event(*emit(timeline.Assistant, parser.JSONText(p.Content), p.Timestamp))
		case "thinking":
			out.Event(*emit(timeline.Thinking, parser.JSONText(p.Content), p.Timestamp))
		case "tool-call", "builtin-tool-call":
			args := p.Args
			if s, ok := parser.JSONString(args); ok {
				args = json.RawMessage(s)
			}
			e := emit(timeline.ToolUse, headline(args, p.ToolName), p.Timestamp)
			e.ToolName, e.ToolUseID, e.ToolInput = p.ToolName, p.ToolCallID, parser.CompactJSON(args)
			out.Event(*e)
		default:
			out.Event(*emit(timeline.System, "a "+orKind(p.PartKind)+" part of the "+orKind(m.Kind)+": "+parser.CompactJSON(raw), p.Timestamp))
		}
	}
	if m.State != "" && m.State != "complete" {
		out.Event(*emit(timeline.System, "message state: "+m.State, ""))
	}
	if k == 0 {
		out.Report(rowid, parser.KindSkippedRecord, fmt.Sprintf("message %d of conversation %s has no parts", i, sid))
	}
}

func orKind(s string) string {
	if s == "" {
		return "untyped"
	}
	return s
}

// userText is a user prompt's content: a string, or a list of strings and
// media items (named, never inlined).
func userText(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return parser.CompactJSON(raw)
	}
	var parts []string
	for _, it := range items {
		if s, ok := parser.JSONString(it); ok {
			parts = append(parts, s)
			continue
		}
		var m struct {
			Kind    string `json:"kind"`
			Content string `json:"content"`
			URL     string `json:"url"`
		}
		_ = json.Unmarshal(it, &m)
		switch {
		case m.Kind == "text-content" || (m.Kind == "" && m.Content != ""):
			parts = append(parts, m.Content)
		case m.URL != "":
			parts = append(parts, "["+m.Kind+" "+m.URL+"]")
		default:
			parts = append(parts, "["+orKind(m.Kind)+"]")
		}
	}
	return strings.Join(parts, "\n")
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "cmd", "path", "file_path", "pattern", "query", "url")
}
